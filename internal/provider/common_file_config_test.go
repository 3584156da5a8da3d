package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestCheckFileConfig(t *testing.T) {
	s, null := types.StringValue, types.StringNull()
	base := fileModel{Path: null, Content: null, Format: null, Encoding: null, Name: null, PartName: null}
	withPath := base
	withPath.Path = s("gl.txt")
	assertAttrError(t, checkFileConfig(withPath), filePath("format"), "file.format is required", "gl.txt")
	withPath.Format = s("CSV")
	if d := checkFileConfig(withPath); d.HasError() {
		t.Errorf("format set: %v", d)
	}
	content := base
	content.Content = s("A,B\n1,Ω\n")
	content.Format = s("CSV")
	content.Encoding = s("Windows Latin-1")
	assertAttrError(t, checkFileConfig(content), filePath("content"), "Windows Latin-1", "U+03A9")
	content.Encoding = s("UTF-16")
	if d := checkFileConfig(content); d.HasError() {
		t.Errorf("UTF-16 content: %v", d)
	}
	content.Format = null
	assertAttrError(t, checkFileConfig(content), filePath("format"), "inline content")
	content.Name = s("x.tsv")
	if d := checkFileConfig(content); d.HasError() {
		t.Errorf("format from name: %v", d)
	}
}
