package main

import (
	"fmt"
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

// processCPU reads the CPU time a process has spent (user and system),
// from /proc/PID/stat; 0 where there is none.
func processCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // the name may hold spaces
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	system, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+system) * time.Second / clockTicks
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
