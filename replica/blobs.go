package replica

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/s3/manager"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// dirBlobs keeps the files in a folder.
type dirBlobs string

func (d dirBlobs) List(context.Context) (map[string]bool, error) {
	entries, err := os.ReadDir(string(d))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	names := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names[e.Name()] = true
		}
	}
	return names, nil
}

func (d dirBlobs) Put(_ context.Context, name string, r io.Reader, _ int64) error {
	if err := os.MkdirAll(string(d), 0o750); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(string(d), ".put-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	defer tmp.Close()
	if _, err := io.Copy(tmp, r); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(string(d), name))
}

func (d dirBlobs) Open(_ context.Context, name string) (io.ReadCloser, error) {
	return os.Open(filepath.Join(string(d), name))
}

func (d dirBlobs) Delete(_ context.Context, name string) error {
	if err := os.Remove(filepath.Join(string(d), name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// s3Blobs keeps the files in a bucket, under the URL's prefix.
type s3Blobs struct {
	client         *s3.Client
	bucket, prefix string
}

// newS3Blobs connects the way Litestream's own S3 client does: the
// configured keys or the usual AWS sources, and path-style requests without
// optional checksums for an S3-compatible endpoint.
func newS3Blobs(ctx context.Context, o Options, l location) (*s3Blobs, error) {
	opts := []func(*awsconfig.LoadOptions) error{awsconfig.WithRegion(o.Region)}
	if o.Region == "" {
		opts[0] = awsconfig.WithRegion("us-east-1")
	}
	if o.AccessKeyID != "" && o.SecretAccessKey != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(o.AccessKeyID, o.SecretAccessKey, "")))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("s3 configuration: %w", err)
	}
	endpoint := func(so *s3.Options) {
		if o.Endpoint != "" {
			so.BaseEndpoint = aws.String(o.Endpoint)
			so.UsePathStyle = true
			so.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
			so.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		}
	}
	client := s3.NewFromConfig(cfg, endpoint)
	if o.Region == "" && o.Endpoint == "" {
		region, err := manager.GetBucketRegion(ctx, client, l.host)
		if err != nil {
			return nil, fmt.Errorf("s3: the region of bucket %s: %w", l.host, err)
		}
		client = s3.NewFromConfig(cfg, endpoint, func(so *s3.Options) { so.Region = region })
	}
	return &s3Blobs{client: client, bucket: l.host, prefix: path.Join(l.root, "files") + "/"}, nil
}

func (b *s3Blobs) List(ctx context.Context) (map[string]bool, error) {
	names := map[string]bool{}
	pages := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{Bucket: &b.bucket, Prefix: &b.prefix})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, obj := range page.Contents {
			names[strings.TrimPrefix(aws.ToString(obj.Key), b.prefix)] = true
		}
	}
	return names, nil
}

func (b *s3Blobs) Put(ctx context.Context, name string, r io.Reader, size int64) error {
	_, err := b.client.PutObject(ctx, &s3.PutObjectInput{Bucket: &b.bucket, Key: aws.String(b.prefix + name),
		Body: r, ContentLength: aws.Int64(size)})
	return err
}

func (b *s3Blobs) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	out, err := b.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &b.bucket, Key: aws.String(b.prefix + name)})
	if err != nil {
		return nil, err
	}
	return out.Body, nil
}

// Delete removes the object; S3 answers a missing key with success.
func (b *s3Blobs) Delete(ctx context.Context, name string) error {
	_, err := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &b.bucket, Key: aws.String(b.prefix + name)})
	return err
}

// sftpBlobs keeps the files on an SSH server, with the password of the URL.
type sftpBlobs struct {
	addr, dir string
	config    *ssh.ClientConfig
}

func newSFTPBlobs(o Options, l location) (*sftpBlobs, error) {
	var auth []ssh.AuthMethod
	if password, ok := l.user.Password(); ok {
		auth = append(auth, ssh.Password(password))
	}
	if o.KeyFile != "" {
		pem, err := os.ReadFile(o.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("sftp replica: %w", err)
		}
		signer, err := ssh.ParsePrivateKey(pem)
		if err != nil {
			return nil, fmt.Errorf("sftp replica: the key file %s: %w", o.KeyFile, err)
		}
		auth = append(auth, ssh.PublicKeys(signer))
	}
	if len(auth) == 0 {
		return nil, errors.New("sftp replica: needs a password in the URL (sftp://user:password@host/path) or a key file")
	}
	hostKey := ssh.InsecureIgnoreHostKey() // Start has warned
	if o.HostKey != "" {
		pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(o.HostKey))
		if err != nil {
			return nil, fmt.Errorf("sftp replica: the host key: %w", err)
		}
		hostKey = ssh.FixedHostKey(pub)
	}
	addr := l.host
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(addr, "22")
	}
	return &sftpBlobs{addr: addr, dir: path.Join(l.root, "files"), config: &ssh.ClientConfig{User: l.user.Username(),
		Auth: auth, HostKeyCallback: hostKey}}, nil
}

// with runs fn on a connection of its own: the files are copied seldom,
// and a connection kept open would need watching.
func (b *sftpBlobs) with(fn func(c *sftp.Client) error) error {
	conn, err := ssh.Dial("tcp", b.addr, b.config)
	if err != nil {
		return err
	}
	defer conn.Close()
	c, err := sftp.NewClient(conn)
	if err != nil {
		return err
	}
	defer c.Close()
	return fn(c)
}

func (b *sftpBlobs) List(context.Context) (map[string]bool, error) {
	names := map[string]bool{}
	return names, b.with(func(c *sftp.Client) error {
		entries, err := c.ReadDir(b.dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		for _, e := range entries {
			if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				names[e.Name()] = true
			}
		}
		return err
	})
}

func (b *sftpBlobs) Put(_ context.Context, name string, r io.Reader, _ int64) error {
	return b.with(func(c *sftp.Client) error {
		if err := c.MkdirAll(b.dir); err != nil {
			return err
		}
		tmp := path.Join(b.dir, ".put-"+name)
		f, err := c.Create(tmp)
		if err != nil {
			return err
		}
		if _, err := io.Copy(f, r); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		return c.PosixRename(tmp, path.Join(b.dir, name))
	})
}

func (b *sftpBlobs) Open(_ context.Context, name string) (io.ReadCloser, error) {
	var data []byte
	err := b.with(func(c *sftp.Client) error {
		f, err := c.Open(path.Join(b.dir, name))
		if err != nil {
			return err
		}
		defer f.Close()
		data, err = io.ReadAll(f)
		return err
	})
	if err != nil {
		return nil, err
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}

func (b *sftpBlobs) Delete(_ context.Context, name string) error {
	return b.with(func(c *sftp.Client) error {
		if err := c.Remove(path.Join(b.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
}
