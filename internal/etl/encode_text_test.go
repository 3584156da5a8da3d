package etl

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/flatfile"
)

func TestEncodeText(t *testing.T) {
	const text = "City\nMontréal\n"
	cases := []struct {
		enc  flatfile.Encoding
		want []byte
	}{
		{flatfile.EncodingUTF8, []byte("City\nMontr\xc3\xa9al\n")},
		{flatfile.EncodingLatin1, []byte("City\nMontr\xe9al\n")},
		{flatfile.EncodingUTF16, []byte("\xff\xfeC\x00i\x00t\x00y\x00\n\x00M\x00o\x00n\x00t\x00r\x00\xe9\x00a\x00l\x00\n\x00")},
	}
	for _, tc := range cases {
		got, err := EncodeText(text, tc.enc)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("%s: got % x, %v; want % x", tc.enc, got, err, tc.want)
		}
	}
	// Windows-1252 has the euro sign (0x80), not the Greek omega.
	if got, err := EncodeText("€", flatfile.EncodingLatin1); err != nil || !bytes.Equal(got, []byte{0x80}) {
		t.Errorf("euro: % x, %v", got, err)
	}
	_, err := EncodeText("A,B\n1,Ω\n", flatfile.EncodingLatin1)
	var ue *UnencodableError
	if !errors.As(err, &ue) || ue.Rune != 'Ω' || ue.Line != 2 || ue.Column != 3 ||
		!strings.Contains(err.Error(), "U+03A9") || !strings.Contains(err.Error(), "line 2, column 3") {
		t.Errorf("omega in Latin-1: %v, want an error naming U+03A9 at line 2, column 3", err)
	}
	// A write-only value's error says where, and never the character.
	if wo := ue.WriteOnly(); !strings.Contains(wo, "line 2, column 3") || !strings.Contains(wo, "the value is write-only") ||
		!strings.HasSuffix(wo, "or remove the character") || strings.Contains(wo, "Ω") || strings.Contains(wo, "03A9") {
		t.Errorf("write-only: %q", wo)
	}
	// Characters outside the BMP become surrogate pairs in UTF-16.
	if got, _ := EncodeText("😀", flatfile.EncodingUTF16); !bytes.Equal(got, []byte{0xff, 0xfe, 0x3d, 0xd8, 0x00, 0xde}) {
		t.Errorf("emoji in UTF-16: % x", got)
	}
	if _, err := EncodeText("x", "UTF-32"); err == nil {
		t.Error("UTF-32 must be refused")
	}
	for _, e := range flatfile.Encodings {
		if !e.Known() {
			t.Errorf("%s is not known", e)
		}
	}
	if flatfile.Encoding("UTF-32").Known() || flatfile.Encoding("utf-8").Known() {
		t.Error("an encoding the service does not accept is known")
	}
}
