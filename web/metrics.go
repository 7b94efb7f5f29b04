package web

import (
	"context"
	"crypto/subtle"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"chatsvc/app"
)

// metrics counts HTTP requests by route and status, and exposes the
// service's queues and connection pools, for Prometheus.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newMetrics(svc *app.Service, replica func() ReplicaStatus) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chatsvc_http_requests_total",
			Help: "HTTP requests by route pattern, method and status."}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "chatsvc_http_request_duration_seconds",
			Help: "HTTP request latency by route pattern and method.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)},
			[]string{"route", "method"}),
	}
	m.registry.MustRegister(m.requests, m.latency, stateCollector{svc},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if replica != nil {
		m.registry.MustRegister(replicaCollector(replica))
	}
	return m
}

func (m *metrics) observe(route, method string, status int, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route, method).Observe(d.Seconds())
}

// handler serves /metrics: behind a bearer token when one is configured,
// else only to a scraper on this machine (a loopback peer not relaying
// for someone else), as the figures tell an outsider how busy the service is.
func (m *metrics) handler(token string) http.Handler {
	h := promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	if token == "" {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !fromThisMachine(r) {
				http.Error(w, "forbidden: set metrics.token to scrape from another machine", http.StatusForbidden)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, _ := bearer(r)
		if subtle.ConstantTimeCompare([]byte(tok), []byte(token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// stateCollector reads queue depths and pool statistics at scrape time.
type stateCollector struct{ svc *app.Service }

var (
	descAttempts = prometheus.NewDesc("chatsvc_webhook_attempts_total", "Webhook delivery attempts by outcome.", []string{"outcome"}, nil)
	descStore    = prometheus.NewDesc("chatsvc_stored", "Objects the database holds, by kind.", []string{"kind"}, nil)
	descQueue    = prometheus.NewDesc("chatsvc_queue_depth", "Work waiting in a queue of the database.", []string{"queue"}, nil)
	descPool     = prometheus.NewDesc("chatsvc_sqlite_connections", "SQLite connections by pool and state.", []string{"pool", "state"}, nil)
	descWaits    = prometheus.NewDesc("chatsvc_sqlite_waits_total", "Times a request waited for a SQLite connection.", []string{"pool"}, nil)
)

func (stateCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- descQueue
	ch <- descPool
	ch <- descWaits
	ch <- descAttempts
	ch <- descStore
}

func (c stateCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if g, err := c.svc.Gauges(ctx); err == nil {
		for q, n := range g.Queues {
			ch <- prometheus.MustNewConstMetric(descQueue, prometheus.GaugeValue, float64(n), q)
		}
		ch <- prometheus.MustNewConstMetric(descAttempts, prometheus.CounterValue, float64(g.DeliveriesOK), "delivered")
		ch <- prometheus.MustNewConstMetric(descAttempts, prometheus.CounterValue, float64(g.DeliveriesFailed), "failed")
		for kind, n := range map[string]int64{"knowledge_pages": g.KnowledgePages, "knowledge_chunks": g.KnowledgeChunks,
			"knowledge_sources": g.KnowledgeSources, "knowledge_sources_failed": g.KnowledgeFailed,
			"conversations": g.ConversationsTotal} {
			ch <- prometheus.MustNewConstMetric(descStore, prometheus.GaugeValue, float64(n), kind)
		}
	}
	w, r := c.svc.PoolStats()
	for pool, st := range map[string]struct{ inUse, idle, waits int64 }{
		"writer":  {int64(w.InUse), int64(w.Idle), w.WaitCount},
		"readers": {int64(r.InUse), int64(r.Idle), r.WaitCount},
	} {
		ch <- prometheus.MustNewConstMetric(descPool, prometheus.GaugeValue, float64(st.inUse), pool, "in_use")
		ch <- prometheus.MustNewConstMetric(descPool, prometheus.GaugeValue, float64(st.idle), pool, "idle")
		ch <- prometheus.MustNewConstMetric(descWaits, prometheus.CounterValue, float64(st.waits), pool)
	}
}

// fromThisMachine tells whether the request comes straight from a loopback
// address, not through a proxy on this machine.
func fromThisMachine(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback() && r.Header.Get("X-Forwarded-For") == "" && r.Header.Get("Forwarded") == ""
}
