internal import CLibXML2Loader

/// libxml2, which the program opens on first use (CLibXML2Loader) rather than at start-up.
package enum XMLLibrary {
    /// Why a parser could not start: libxml2 could not be opened (not installed), or it was and
    /// still gave no parser (out of memory).
    package static var startFailure: String {
        if let reason = tidings_xml_load_error() { return "the XML parser could not start: \(String(cString: reason))" }
        return "the XML parser could not start (out of memory?)"
    }
}
