variable "template_id" { type = string }

# The directory of the test's data files, by absolute path: Terraform runs
# in a copy of this directory.
variable "dir" { type = string }

# The test rows as CSV, PSV and TDF text.
variable "csv_text" { type = string }
variable "psv_text" { type = string }
variable "tdf_text" { type = string }

# Files in each format and encoding. The format is not set: it comes from
# the extension (every TDF extension gives the format).

resource "etl_import" "csv_0" {
  template_id = var.template_id
  file = {
    path     = "${var.dir}/gl_csv_0.csv"
    encoding = "UTF-8"
  }
}

resource "etl_import" "csv_1" {
  template_id = var.template_id
  file = {
    path     = "${var.dir}/gl_csv_1.csv"
    encoding = "UTF-16"
  }
}

resource "etl_import" "csv_2" {
  template_id = var.template_id
  file = {
    path     = "${var.dir}/gl_csv_2.csv"
    encoding = "Windows Latin-1"
  }
}

resource "etl_import" "psv_0" {
  template_id = var.template_id
  file = {
    path     = "${var.dir}/gl_psv_0.psv"
    encoding = "UTF-8"
  }
}

resource "etl_import" "psv_1" {
  template_id = var.template_id
  file = {
    path     = "${var.dir}/gl_psv_1.psv"
    encoding = "UTF-16"
  }
}

resource "etl_import" "psv_2" {
  template_id = var.template_id
  file = {
    path     = "${var.dir}/gl_psv_2.psv"
    encoding = "Windows Latin-1"
  }
}

resource "etl_import" "tdf_0" {
  template_id = var.template_id
  file = {
    path     = "${var.dir}/gl_tdf_0.tsv"
    encoding = "UTF-8"
  }
}

resource "etl_import" "tdf_1" {
  template_id = var.template_id
  file = {
    path     = "${var.dir}/gl_tdf_1.tsv"
    encoding = "UTF-16"
  }
}

resource "etl_import" "tdf_2" {
  template_id = var.template_id
  file = {
    path     = "${var.dir}/gl_tdf_2.tab"
    encoding = "Windows Latin-1"
  }
}

# Inline content, encoded by the provider to the declared encoding.

resource "etl_import" "inline_csv" {
  template_id = var.template_id
  file = {
    content  = var.csv_text
    encoding = "UTF-8"
    name     = "inline.csv"
  }
}

resource "etl_import" "inline_psv" {
  template_id = var.template_id
  file = {
    content  = var.psv_text
    encoding = "UTF-16"
    format   = "PSV"
  }
}

resource "etl_import" "inline_tdf" {
  template_id = var.template_id
  file = {
    content  = var.tdf_text
    encoding = "Windows Latin-1"
    format   = "TDF"
  }
}
