// A peer for the scrape benchmark (issue 20): the transceiver exporter a user would write with
// Go's client_golang. It reads an exposition body the C++ exporter served, registers the same
// families (name, HELP, type, label names) as GaugeVec/CounterVec/HistogramVec, keeps a handle
// on every child as a poller would, and serves the registry with promhttp.
//
//	peer_exporter --body FILE [--listen 127.0.0.1:0] [--fresh]   prints "listening PORT", serves
//	peer_exporter --body FILE --bench-render N                   prints render CPU as JSON
//
// --fresh: each scrape wakes the poller, which sets every sample again (the exporter's --fresh
// does the same with its snapshot store). Nothing here caches a body, so a repeated reading
// costs a render exactly as a new one would.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"sort"
	"syscall"
	"time"
	"unsafe"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
)

type gaugeReading struct {
	g prometheus.Gauge
	v float64
}

type counterReading struct {
	c    prometheus.Counter
	v    float64
	last float64 // what the counter holds: a poll adds the difference, as counters only grow
}

type histogramReading struct {
	h prometheus.Observer
	v float64 // one observation per poll (the cycle's mean, standing in for its duration)
}

type peer struct {
	reg        *prometheus.Registry
	gauges     []gaugeReading
	counters   []counterReading
	histograms []histogramReading
}

// labelNames is every label name the family's series carry, in first-seen order: a series
// without one (an optional label, docs/metrics.md "[side]") gets it empty, which is no label in
// Prometheus' data model.
func labelNames(metrics []*dto.Metric) []string {
	var names []string
	seen := map[string]bool{}
	for _, m := range metrics {
		for _, l := range m.GetLabel() {
			if !seen[l.GetName()] {
				seen[l.GetName()] = true
				names = append(names, l.GetName())
			}
		}
	}
	return names
}

func labelValues(m *dto.Metric, names []string) []string {
	values := make([]string, len(names))
	for _, l := range m.GetLabel() {
		for i, n := range names {
			if n == l.GetName() {
				values[i] = l.GetValue()
			}
		}
	}
	return values
}

// load registers every family of the body with its samples' current values.
func load(path string) (*peer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var parser expfmt.TextParser
	families, err := parser.TextToMetricFamilies(f)
	if err != nil {
		return nil, err
	}
	p := &peer{reg: prometheus.NewRegistry()}
	for name, mf := range families {
		metrics := mf.GetMetric()
		if len(metrics) == 0 {
			continue
		}
		labels := labelNames(metrics)
		var c prometheus.Collector
		switch mf.GetType() {
		case dto.MetricType_GAUGE:
			vec := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: mf.GetHelp()}, labels)
			for _, m := range metrics {
				r := gaugeReading{vec.WithLabelValues(labelValues(m, labels)...), m.GetGauge().GetValue()}
				r.g.Set(r.v)
				p.gauges = append(p.gauges, r)
			}
			c = vec
		case dto.MetricType_COUNTER:
			vec := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: mf.GetHelp()}, labels)
			for _, m := range metrics {
				r := counterReading{c: vec.WithLabelValues(labelValues(m, labels)...), v: m.GetCounter().GetValue()}
				r.c.Add(r.v)
				r.last = r.v
				p.counters = append(p.counters, r)
			}
			c = vec
		case dto.MetricType_HISTOGRAM:
			var bounds []float64
			for _, b := range metrics[0].GetHistogram().GetBucket() {
				if !math.IsInf(b.GetUpperBound(), 1) {
					bounds = append(bounds, b.GetUpperBound())
				}
			}
			vec := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: mf.GetHelp(), Buckets: bounds}, labels)
			for _, m := range metrics {
				h := vec.WithLabelValues(labelValues(m, labels)...)
				// Reproduce the bucket counts by observing each bucket's bound (the sum differs).
				var below uint64
				for _, b := range m.GetHistogram().GetBucket() {
					v := b.GetUpperBound()
					if math.IsInf(v, 1) {
						v = 2 * bounds[len(bounds)-1]
					}
					for ; below < b.GetCumulativeCount(); below++ {
						h.Observe(v)
					}
				}
				mean := 0.0
				if n := m.GetHistogram().GetSampleCount(); n > 0 {
					mean = m.GetHistogram().GetSampleSum() / float64(n)
				}
				p.histograms = append(p.histograms, histogramReading{h, mean})
			}
			c = vec
		default:
			return nil, fmt.Errorf("%s: type %v not mirrored", name, mf.GetType())
		}
		if err := p.reg.Register(c); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return p, nil
}

// poll publishes one poll's readings: every sample is set again.
func (p *peer) poll() {
	for _, r := range p.gauges {
		r.g.Set(r.v)
	}
	for i := range p.counters {
		r := &p.counters[i]
		r.c.Add(r.v - r.last)
		r.last = r.v
	}
	for _, r := range p.histograms {
		r.h.Observe(r.v)
	}
}

// render is what promhttp does per scrape: Gather, then encode every family as text.
func (p *peer) render(w *bytes.Buffer, gz *gzip.Writer) {
	mfs, err := p.reg.Gather()
	if err != nil {
		panic(err)
	}
	out := interface{ Write([]byte) (int, error) }(w)
	if gz != nil {
		gz.Reset(w) // promhttp reuses pooled writers the same way
		out = gz
	}
	enc := expfmt.NewEncoder(out, expfmt.FmtText)
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			panic(err)
		}
	}
	if gz != nil {
		gz.Close()
	}
}

// cpuNow is the process's CPU time (all threads: the garbage collector's work counts).
func cpuNow() time.Duration {
	var ts syscall.Timespec
	const clockProcessCPUTimeID = 2
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

func medianMs(n int, before func(), work func()) float64 {
	var ms []float64
	for i := 0; i < n; i++ {
		if before != nil {
			before()
		}
		start := cpuNow()
		work()
		ms = append(ms, float64(cpuNow()-start)/1e6)
	}
	sort.Float64s(ms)
	return ms[len(ms)/2]
}

func benchRender(p *peer, n int) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(nil) // promhttp's level: gzip.DefaultCompression
	result := map[string]interface{}{
		"poll_ms":               medianMs(n, nil, p.poll),
		"render_ms_fresh":       medianMs(n, p.poll, func() { buf.Reset(); p.render(&buf, nil) }),
		"render_ms_cached":      medianMs(n, nil, func() { buf.Reset(); p.render(&buf, nil) }),
		"bytes":                 buf.Len(),
		"render_gzip_ms_fresh":  medianMs(n, p.poll, func() { buf.Reset(); p.render(&buf, gz) }),
		"render_gzip_ms_cached": medianMs(n, nil, func() { buf.Reset(); p.render(&buf, gz) }),
		"gzip_bytes":            buf.Len(),
	}
	json.NewEncoder(os.Stdout).Encode(result)
}

func main() {
	body := flag.String("body", "", "exposition body to mirror (saved from the exporter)")
	listen := flag.String("listen", "127.0.0.1:0", "address to serve /metrics on")
	fresh := flag.Bool("fresh", false, "every scrape triggers a poll that sets every sample again")
	bench := flag.Int("bench-render", 0, "print the median CPU of N renders as JSON and exit")
	flag.Parse()
	p, err := load(*body)
	if err != nil {
		fmt.Fprintln(os.Stderr, "peer_exporter:", err)
		os.Exit(1)
	}
	if *bench > 0 {
		benchRender(p, *bench)
		return
	}
	handler := promhttp.HandlerFor(p.reg, promhttp.HandlerOpts{})
	if *fresh {
		wake := make(chan struct{}, 1)
		go func() {
			for range wake {
				p.poll()
			}
		}()
		inner := handler
		handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select { // a poll already pending covers this scrape too
			case wake <- struct{}{}:
			default:
			}
			inner.ServeHTTP(w, r)
		})
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "peer_exporter:", err)
		os.Exit(1)
	}
	fmt.Printf("listening %d\n", ln.Addr().(*net.TCPAddr).Port)
	http.Handle("/metrics", handler)
	fmt.Fprintln(os.Stderr, http.Serve(ln, nil))
	os.Exit(1)
}
