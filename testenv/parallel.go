package testenv

import (
	"flag"
	"strconv"
)

// WaitSideBySide lets n of the package's parallel tests run at once, for a
// package whose tests mostly wait (for a second to pass, for a file's
// timestamp to change): go test's default, the number of cores, would
// leave two cores idle while two tests sleep. A -parallel given on the
// command line is kept. Call it from TestMain, before m.Run.
func WaitSideBySide(n int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(n))
	}
}
