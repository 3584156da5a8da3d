package flatfile

import "fmt"

// otherDelims are the delimiters counted in the header to tell a file in
// another format (or with ';', which no format uses); parser.others counts
// them in this order.
var otherDelims = [4]byte{',', '|', '\t', ';'}

// checkHeaderDelimiter returns a ProblemDelimiter error when the
// one-column header holds another format's delimiter (or ';'), naming the
// one it holds most of: such a file is in that format, not the declared
// one.
func (p *parser) checkHeaderDelimiter() error {
	best, k := 0, -1
	for i, n := range p.others {
		if otherDelims[i] != p.delim && n > best {
			best, k = n, i
		}
	}
	if k < 0 {
		return nil
	}
	d := otherDelims[k]
	e := &FileError{Problem: ProblemDelimiter, Line: 1, Offset: -1}
	switch d {
	case ',':
		e.LooksLike = FormatCSV
	case '|':
		e.LooksLike = FormatPSV
	case '\t':
		e.LooksLike = FormatTDF
	}
	e.Detail = fmt.Sprintf("the delimiter does not match the format: the header (line 1) has no %s, so it is one column, but it holds %d %s",
		delimName(p.delim), best, delimName(d))
	if e.LooksLike != "" {
		e.Fix = fmt.Sprintf("the file looks like %s (%s separated): set the format to %q, or save the file as %s", e.LooksLike, delimWord(d), e.LooksLike, p.format)
	} else {
		e.Fix = fmt.Sprintf("the service accepts CSV (comma), PSV (pipe) and TDF (tab) files: save the file with one of those delimiters and set the format to match (it is %s now)", p.format)
	}
	return e
}

// delimName names delimiter d with the character, for messages, such as
// "comma (,)".
func delimName(d byte) string {
	switch d {
	case ',':
		return "comma (,)"
	case '|':
		return "pipe (|)"
	case '\t':
		return "tab"
	case ';':
		return "semicolon (;)"
	}
	return fmt.Sprintf("%q", d)
}

// delimWord names delimiter d in one word, for "comma separated" and the
// like.
func delimWord(d byte) string {
	switch d {
	case ',':
		return "comma"
	case '|':
		return "pipe"
	case '\t':
		return "tab"
	}
	return string(d)
}
