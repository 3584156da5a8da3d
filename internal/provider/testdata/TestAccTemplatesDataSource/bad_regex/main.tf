data "etl_templates" "bad" {
  name_regex = "GL("
}
