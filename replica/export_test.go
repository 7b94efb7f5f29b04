package replica

// SetCheckpointPages sets the log length at which Litestream checkpoints,
// so that a test's few writes cross it, until the test ends.
func SetCheckpointPages(cleanup func(func()), n int) {
	was := checkpointPages
	checkpointPages = n
	cleanup(func() { checkpointPages = was })
}
