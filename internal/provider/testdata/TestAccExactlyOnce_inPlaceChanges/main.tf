variable "template_id" { type = string }

# The attributes of the file; null leaves one out. The path is absolute:
# Terraform runs in a copy of this directory.
variable "content" {
  type    = string
  default = null
}
variable "format" {
  type    = string
  default = null
}
variable "path" {
  type    = string
  default = null
}
variable "name" {
  type    = string
  default = null
}
variable "part_name" {
  type    = string
  default = null
}

# The behaviour settings; null leaves one out.
variable "wait" {
  type    = bool
  default = null
}
variable "cancel" {
  type    = bool
  default = null
}
variable "create_timeout" {
  type    = string
  default = null
}

resource "etl_import" "gl" {
  template_id = var.template_id
  file = {
    content   = var.content
    format    = var.format
    path      = var.path
    name      = var.name
    part_name = var.part_name
  }
  wait_for_completion = var.wait
  cancel_on_destroy   = var.cancel
  timeouts            = var.create_timeout == null ? null : { create = var.create_timeout }
}
