internal import CLibXML2
import Foundation
import Markup

/// Reads an OPML document with libxml2's SAX2 parser (the same one the feed parser drives):
/// outlines become subscriptions, folder outlines their categories. No network, no external
/// entities; only the five predefined entities are expanded (HTML named ones are turned into
/// numeric references before parsing).
enum OPMLReader {
    /// What a read collected.
    final class Collector {
        var rootName: String?
        var subscriptions: [OPMLSubscription] = []
        var firstError: String?
        private var folders: [String?] = []
        private var seen = Set<URL>()

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
                if seen.insert(url).inserted {
                    subscriptions.append(
                        OPMLSubscription(
                            feedURL: url, title: title, homePageURL: attributes["htmlurl"].flatMap(URL.init(string:)),
                            categories: folders.compactMap { $0 }))
                }
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
        handler.initialized = tidings_sax2_magic()
        handler.startElementNs = { user, local, _, _, _, _, attributeCount, _, attributes in
            guard let user, let local else { return }
            var values: [String: String] = [:]
            SAXAttributes(pointer: attributes, count: Int(attributeCount)).visit { _, name, value in
                let key = String(cString: name).lowercased()
                if values[key] == nil { values[key] = String(decoding: value, as: UTF8.self) }
            }
            OPMLReader.collector(user).start(String(cString: local), attributes: values)
        }
        handler.endElementNs = { user, local, _, _ in
            guard let user, let local else { return }
            OPMLReader.collector(user).end(String(cString: local))
        }
        handler.getEntity = { _, name in name.flatMap { xmlGetPredefinedEntity($0) } }
        handler.serror = { user, error in
            guard let user, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let target = OPMLReader.collector(user)
            if target.firstError == nil {
                let message = error.pointee.message.map { String(cString: $0).trimmedWhitespace } ?? "unknown error"
                target.firstError = "\(message) at line \(error.pointee.line)"
            }
        }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Collector? in
            guard let start = raw.baseAddress?.assumingMemoryBound(to: CChar.self),
                let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil)
            else { return nil }
            defer {
                if let document = context.pointee.myDoc { xmlFreeDoc(document) }
                xmlFreeParserCtxt(context)
            }
            xmlCtxtUseOptions(context, Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue))
            let box = Unmanaged.passRetained(collector)
            defer { box.release() }
            context.pointee.userData = box.toOpaque()
            xmlParseChunk(context, start, Int32(clamping: raw.count), 1)
            return collector
        }
    }

    fileprivate static func collector(_ pointer: UnsafeMutableRawPointer) -> Collector {
        Unmanaged<Collector>.fromOpaque(pointer).takeUnretainedValue()
    }
}
