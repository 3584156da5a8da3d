// Command terraform-provider-etl serves the etl Terraform provider over the plugin protocol (version 6).
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/etl-provider/terraform-provider-etl/internal/provider"
)

// version is set by the release build (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	quietUnlessLogging()

	server := provider.NewServer(version)
	err := providerserver.Serve(context.Background(), server.Provider, providerserver.ServeOpts{
		Address: "registry.terraform.io/etl-provider/etl",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err)
	}
	// Terraform closed the provider at the end of its operation: the jobs
	// its creates returned are in the state it writes now.
	server.Closed()
}

// quietUnlessLogging turns the plugin SDK's and the provider's loggers off
// when Terraform shows no provider logs (neither TF_LOG nor TF_LOG_PROVIDER
// is set: Terraform then discards them). Otherwise they write every line as
// JSON at TRACE level, with its caller's location, for nothing: a third of
// the provider's CPU time when applying hundreds of resources. A level set
// explicitly for one of them is kept.
func quietUnlessLogging() {
	if os.Getenv("TF_LOG") != "" || os.Getenv("TF_LOG_PROVIDER") != "" {
		return
	}
	for _, name := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_ETL"} {
		if _, set := os.LookupEnv(name); !set {
			_ = os.Setenv(name, "off")
		}
	}
}
