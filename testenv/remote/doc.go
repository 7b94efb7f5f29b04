// Package remote starts the servers a replica can be sent to, an S3 bucket
// in memory and an SFTP server, for the tests of replication. They are a
// package of their own so that the tests that do not replicate do not link
// an S3 server and an SSH stack.
package remote
