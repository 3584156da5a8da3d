package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/etl-provider/terraform-provider-etl/internal/etl"
)

// rowsCRLFSummary titles the warning for rows with a cell that holds a CR
// LF (rowsCRLFWarning).
const rowsCRLFSummary = "Cell with a CR LF line break"

// rowsCRLFNote says what becomes of a CR LF in a cell: the sentence the
// rows attribute's description, the warning and csv_encode's description
// share.
const rowsCRLFNote = "Use LF line breaks inside cells: the plan warns of a CR LF."

// rowsCRLFWarning warns, on the first cell of rows (the attribute at) that
// holds a CR LF, that the value imported depends on how the rows are sent.
// It names the cell by its row and column; for rows (not write-only) it
// quotes the column's name too, never anything of rows_wo. limit is the
// largest JSON body of rows sent (the provider's tuning).
func rowsCRLFWarning(rows [][]string, at path.Path, limit int64) diag.Diagnostics {
	var diags diag.Diagnostics
	c, found := etl.FindCRLF(rows)
	if !found {
		return diags
	}
	name := attrName(at)
	where := fmt.Sprintf("%s[%d][%d] (row %d, column %d", name, c.Row, c.Cell, c.Row, c.Cell+1)
	if c.Row == 0 {
		where = fmt.Sprintf("%s[0][%d] (the header row, column %d", name, c.Cell, c.Cell+1)
	}
	if name == "rows" && c.Row > 0 && c.Cell < len(rows[0]) {
		where += fmt.Sprintf(", %q", rows[0][c.Cell])
	}
	where += ")"
	more := ""
	if c.Count > 1 {
		more = fmt.Sprintf(", as do %d more cells", c.Count-1)
	}
	diags.AddAttributeWarning(at.AtListIndex(c.Row).AtListIndex(c.Cell), rowsCRLFSummary, fmt.Sprintf(
		"%s holds a CR LF line break (\\r\\n)%s. Sent as a JSON body (for rows whose JSON body is at most %d bytes), "+
			"the CR LF is kept; sent as a CSV file (%s, for rows over that limit), or made into CSV with provider::etl::csv_encode, it is read as LF (\\n) "+
			"by the service, as by most CSV readers. So the same rows can import different values depending on their size. "+
			"To avoid it, use LF line breaks in %s's cells, for example replace(cell, \"\\r\\n\", \"\\n\").",
		where, more, limit, etl.CSVFileName, name))
	return diags
}
