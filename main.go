// Command chatsvc is a self-hosted customer chat service in one binary.
package main

import (
	"context"
	_ "embed"
	"os"

	"chatsvc/cli"
)

// defaultConfig holds every setting's default; the file documents them.
//
//go:embed config.example.yaml
var defaultConfig []byte

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	os.Exit(cli.Execute(context.Background(), defaultConfig, version, os.Args[1:], os.Stdout, os.Stderr))
}
