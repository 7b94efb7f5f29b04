package main

import (
	"os"
	"testing"
	"time"
)

// TestProcessCPU: the CPU time read for a process grows while it works.
func TestProcessCPU(t *testing.T) {
	before := processCPU(os.Getpid())
	for end := time.Now().Add(100 * time.Millisecond); time.Now().Before(end); {
	}
	if after := processCPU(os.Getpid()); after <= before {
		t.Fatalf("CPU time %v after 100 ms of work, %v before", after, before)
	}
	if processCPU(-1) != 0 {
		t.Fatal("CPU time read for no process")
	}
}
