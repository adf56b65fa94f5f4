internal import CLibXML2
import Foundation
import Markup

/// Reads an OPML document with libxml2's SAX2 parser (`XMLPushParser`, recovering, as the feed
/// parser drives it): outlines become subscriptions, folder outlines their categories. No
/// network, no external entities; only the five predefined entities are expanded (HTML named
/// ones are turned into numeric references before parsing). Within `limits`.
enum OPMLReader {
    /// What an OPML file may be: 64 MiB, 256 elements deep, a million elements, no entity but
    /// the predefined five.
    static let limits = XMLLimits(
        maximumBytes: 64 << 20, maximumDepth: 256, maximumElements: 1_000_000, entityBudget: 0)

    /// What a read collected.
    final class Collector {
        var rootName: String?
        var subscriptions: [OPMLSubscription] = []
        var firstError: String?
        /// The limit the document went past; reading stopped there.
        var limitExceeded: XMLLimitExceeded?
        private var folders: [String?] = []
        /// Each URL's index in `subscriptions`.
        private var seen: [URL: Int] = [:]
        /// Feed outlines read so far.
        private var outlines = 0

        func start(_ name: String, attributes: [String: String]) {
            if rootName == nil { rootName = name }
            guard name.lowercased() == "outline" else { return }
            let title = (attributes["title"] ?? attributes["text"]).map(\.trimmedWhitespace).flatMap {
                $0.isEmpty ? nil : $0
            }
            // Any outline with an xmlUrl is a subscription, even one whose URL is unusable
            // (relative, no scheme): the importer reports it as skipped rather than lose it.
            if let xmlURL = attributes["xmlurl"]?.trimmedWhitespace, !xmlURL.isEmpty,
                let url = URL(string: xmlURL)
                    ?? URL(string: xmlURL.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed) ?? "")
            {
                let place = folders.compactMap { $0 }
                if let index = seen[url] {
                    // Listed again: one more place for the same subscription.
                    if !subscriptions[index].places.contains(place) {
                        subscriptions[index].places.append(place)
                        subscriptions[index].placeOrder.append(outlines)
                    }
                } else {
                    seen[url] = subscriptions.count
                    subscriptions.append(
                        OPMLSubscription(
                            feedURL: url, title: title, homePageURL: attributes["htmlurl"].flatMap(URL.init(string:)),
                            categories: place, places: [place], placeOrder: [outlines]))
                }
                outlines += 1
                folders.append(nil)
            } else {
                folders.append(title)
            }
        }

        func end(_ name: String) {
            if name.lowercased() == "outline", !folders.isEmpty { folders.removeLast() }
        }
    }

    /// Parses `data`; `nil` if libxml2 could not even start.
    static func read(_ data: Data) -> Collector? {
        let collector = Collector()
        var handler = xmlSAXHandler()
        handler.startElementNs = { pointer, local, _, _, _, _, attributeCount, _, attributes in
            guard let user = XMLPushSession.admit(pointer), let local else { return }
            var values: [String: String] = [:]
            SAXAttributes(pointer: attributes, count: Int(attributeCount)).visit { _, name, value in
                let key = String(cString: name).lowercased()
                if values[key] == nil { values[key] = String(decoding: value, as: UTF8.self) }
            }
            OPMLReader.collector(user).start(String(cString: local), attributes: values)
        }
        handler.endElementNs = { pointer, local, _, _ in
            guard let user = XMLPushSession.owner(pointer), let local else { return }
            OPMLReader.collector(user).end(String(cString: local))
        }
        guard let parser = XMLPushParser(handler: handler, mode: .recovering, limits: limits) else { return nil }
        parser.owner = Unmanaged.passUnretained(collector).toOpaque()
        withExtendedLifetime(collector) {
            data.withUnsafeBytes { parser.push($0, final: true) }
        }
        if let error = parser.firstError { collector.firstError = "\(error.message) at line \(error.line)" }
        collector.limitExceeded = parser.exceeded
        return collector
    }

    fileprivate static func collector(_ pointer: UnsafeMutableRawPointer) -> Collector {
        Unmanaged<Collector>.fromOpaque(pointer).takeUnretainedValue()
    }
}
