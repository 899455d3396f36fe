import Testing

@testable import BoothCore

@Suite("Prometheus' text format")
struct PrometheusTextTests {
    @Test("A family is its help, its type and its samples, labels in the order given")
    func family() {
        var text = PrometheusText()
        text.add("booth_photos_total", .counter, help: "Photos.", value: 3)
        text.add(
            "booth_streams", .gauge, help: "Streams.",
            samples: [.init(labels: ["stream": "preview", "client": "a"], value: 1), .init(labels: ["stream": "events"], value: 0)])
        #expect(
            text.description == """
                # HELP booth_photos_total Photos.
                # TYPE booth_photos_total counter
                booth_photos_total 3
                # HELP booth_streams Streams.
                # TYPE booth_streams gauge
                booth_streams{stream="preview",client="a"} 1
                booth_streams{stream="events"} 0

                """)
    }

    @Test("Label values escape backslashes, quotes and line breaks; help texts backslashes and line breaks")
    func escaping() {
        var text = PrometheusText()
        text.add(
            "booth_state", .gauge, help: "A \"state\" \\ with\na line break.",
            samples: [.init(labels: ["state": #"fault("cam" \ 2)"# + "\nnext"], value: 1)])
        #expect(
            text.description == #"""
                # HELP booth_state A "state" \\ with\na line break.
                # TYPE booth_state gauge
                booth_state{state="fault(\"cam\" \\ 2)\nnext"} 1

                """#)
    }

    @Test("Numbers are written as Prometheus reads them")
    func numbers() {
        #expect(PrometheusText.number(3600) == "3600")
        #expect(PrometheusText.number(-2) == "-2")
        #expect(PrometheusText.number(0.025) == "0.025")
        #expect(PrometheusText.number(2.5) == "2.5")
        #expect(PrometheusText.number(1e-5) == "1e-05")
        #expect(PrometheusText.number(1e20) == "1e+20")
        #expect(PrometheusText.number(.infinity) == "+Inf")
        #expect(PrometheusText.number(-.infinity) == "-Inf")
        #expect(PrometheusText.number(.nan) == "NaN")
    }

    @Test("A histogram has cumulative buckets, +Inf as the count, its sum and count")
    func histogram() {
        var text = PrometheusText()
        text.addHistogram("booth_save_seconds", help: "Saves.", buckets: [(0.05, 1), (1, 2)], sum: 0.5, count: 3)
        #expect(
            text.description == """
                # HELP booth_save_seconds Saves.
                # TYPE booth_save_seconds histogram
                booth_save_seconds_bucket{le="0.05"} 1
                booth_save_seconds_bucket{le="1"} 2
                booth_save_seconds_bucket{le="+Inf"} 3
                booth_save_seconds_sum 0.5
                booth_save_seconds_count 3

                """)
    }

    @Test("Families of several writers join into one exposition")
    func joined() {
        var booth = PrometheusText()
        booth.add("booth_a", .gauge, help: "A.", value: 1)
        var web = PrometheusText()
        web.add("web_b", .counter, help: "B.", value: 2)
        booth.append(web)
        #expect(booth.description == "# HELP booth_a A.\n# TYPE booth_a gauge\nbooth_a 1\n# HELP web_b B.\n# TYPE web_b counter\nweb_b 2\n")
    }

    @Test("Metric and label names are checked")
    func names() {
        #expect(PrometheusText.isValidName("photobooth_http_requests_total", allowingColons: true))
        #expect(PrometheusText.isValidName("job:rate5m", allowingColons: true))
        #expect(!PrometheusText.isValidName("job:rate5m", allowingColons: false))
        #expect(!PrometheusText.isValidName("2xx", allowingColons: false))
        #expect(!PrometheusText.isValidName("with-dash", allowingColons: true))
        #expect(!PrometheusText.isValidName("", allowingColons: true))
    }
}
