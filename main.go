// Command terraform-provider-etl serves the etl Terraform provider over the plugin protocol (version 6).
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/etl-provider/terraform-provider-etl/internal/provider"
)

// version is set by the release build (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/etl-provider/etl",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err)
	}
}
