import Testing

@testable import CorkboardBench

@Suite struct WireScanTests {
    @Test func findsTopLevelFieldsWhateverTheKeyOrder() {
        let sorted =
            #"{"adjusted":false,"client":"c1","op":{"destination":{"before":null,"collection":"b"},"sources":["x1"],"type":"move"},"opId":"bench-7","seq":42,"type":"committed"}"#
        #expect(WireScan.type(of: sorted) == "committed")
        #expect(WireScan.integer("seq", in: sorted) == 42)
        #expect(WireScan.string("opId", in: sorted) == "bench-7")
        let protocolOrder =
            #"{"type":"committed","seq":43,"opId":"k-1","client":"c7","op":{"type":"move","sources":["i3"],"destination":{"collection":"done","before":"i9"}},"adjusted":false}"#
        #expect(WireScan.type(of: protocolOrder) == "committed")
        #expect(WireScan.integer("seq", in: protocolOrder) == 43)
    }

    @Test func ignoresKeysInsideNestedValuesAndStrings() {
        let text = #"{"board":{"seq":99,"items":[{"type":"x","label":"\"seq\":5"}]},"label":"type","seq":7,"type":"welcome"}"#
        #expect(WireScan.integer("seq", in: text) == 7)
        #expect(WireScan.type(of: text) == "welcome")
        #expect(WireScan.string("missing", in: text) == nil)
    }

    @Test func readsSpacedValuesBooleansAndObjects() {
        let text = #"{ "type" : "committed" , "noop" : true, "seq" : 3, "over": {"collection":"b","index":12,"before":null} }"#
        #expect(WireScan.type(of: text) == "committed")
        #expect(WireScan.isTrue("noop", in: text))
        #expect(!WireScan.isTrue("seq", in: text))
        #expect(WireScan.integer("seq", in: text) == 3)
        let over = WireScan.object("over", in: text)
        #expect(over == #"{"collection":"b","index":12,"before":null}"#)
        #expect(WireScan.integer("index", in: over ?? "") == 12)
    }

    @Test func survivesTruncatedAndMalformedText() {
        for text in [#"{"type":"comm"#, #"{"seq":"#, #"{"seq":x}"#, "", "{", #"{"a":"\"#, #"{"over":{"index":1"#] {
            _ = WireScan.type(of: text)
            #expect(WireScan.integer("seq", in: text) == nil)
            #expect(WireScan.object("over", in: text) == nil)
        }
    }

    @Test func findsAMembersFieldsInOnePassWhateverTheKeyOrder() {
        let texts = [
            #"{"adjusted":false,"at":1795575010123,"by":"b","client":"c1","op":{"type":"move","seq":1},"opId":"bench-7","seq":42,"type":"committed"}"#,
            #"{"type":"committed","seq":42,"opId":"bench-7","client":"c1","op":{"type":"move","opId":"x"},"adjusted":false}"#,
        ]
        for text in texts {
            var text = text
            text.withUTF8 { bytes in
                let fields = WireScan.MessageFields(scanning: bytes)
                #expect(fields.isType("committed"))
                #expect(!fields.isType("committe"))
                #expect(fields.seq == 42)
                #expect(!fields.noop)
                #expect(fields.opId.map { String(decoding: $0, as: UTF8.self) } == "bench-7")
            }
        }
        var noop = #"{"noop":true,"opId":"k","seq":3,"type":"committed"}"#
        noop.withUTF8 { bytes in
            let fields = WireScan.MessageFields(scanning: bytes)
            #expect(fields.noop && fields.seq == 3 && fields.isType("committed"))
        }
        var truncated = #"{"type":"rejected","opId":"k"#
        truncated.withUTF8 { bytes in
            let fields = WireScan.MessageFields(scanning: bytes)
            #expect(fields.isType("rejected") && fields.opId == nil && fields.seq == nil)
        }
    }
}
