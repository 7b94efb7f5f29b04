package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// machineCPU reads the CPU time the whole machine has spent busy (user,
// system, interrupts: every process and the kernel), from /proc/stat; 0
// where there is none.
func machineCPU() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	var busy int64
	for i, f := range strings.Fields(line)[1:] {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0
		}
		if i != 3 && i != 4 { // idle and iowait
			busy += v
		}
	}
	return time.Duration(busy) * time.Second / clockTicks
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/stat: 100 on Linux.
const clockTicks = 100

// cpuPer is the machine's busy time between two readings per operation.
func cpuPer(before, after time.Duration, n int) time.Duration {
	if before == 0 || after == 0 || n == 0 {
		return 0
	}
	return (after - before) / time.Duration(n)
}
