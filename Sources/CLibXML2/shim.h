// libxml2's SAX2 interface, for the Feed module's streaming XML reader.
//
// Only what Swift cannot reach on its own lives here: the SAX2 magic number (a macro too wide
// for Swift's macro import) and xmlFree (a global function-pointer variable, which Swift 6
// refuses to read as not concurrency-safe).
#ifndef TIDINGS_CLIBXML2_SHIM_H
#define TIDINGS_CLIBXML2_SHIM_H

// Two layouts: pkg-config (Linux, Homebrew) puts .../include/libxml2 on the search path, so the
// headers are <libxml/...>; an Apple SDK without pkg-config has them under
// $SDKROOT/usr/include/libxml2, reached as <libxml2/libxml/...> from the SDK's usr/include.
#if __has_include(<libxml/xmlversion.h>)
#include <libxml/xmlversion.h>
#else
#include <libxml2/libxml/xmlversion.h>
#endif
// Debian builds libxml2 with ICU, so its headers would pull in the system's ICU headers, whose
// types clash with the ICU copy Foundation brings (_FoundationICU) in any Swift file that sees
// both modules. Nothing here uses libxml2's ICU converters: the only layout that changes is the
// tail of xmlCharEncodingHandler, which is only ever handled by pointer. So the ICU parts of the
// headers are left out.
#undef LIBXML_ICU_ENABLED

#if __has_include(<libxml/parser.h>)
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/entities.h>
#include <libxml/xmlerror.h>
#include <libxml/tree.h>
#else
#include <libxml2/libxml/parser.h>
#include <libxml2/libxml/parserInternals.h>
#include <libxml2/libxml/SAX2.h>
#include <libxml2/libxml/entities.h>
#include <libxml2/libxml/xmlerror.h>
#include <libxml2/libxml/tree.h>
#endif

/// The value of xmlSAXHandler.initialized that selects the SAX2 callbacks.
static inline unsigned int tidings_sax2_magic(void) { return XML_SAX2_MAGIC; }

/// Frees memory libxml2 allocated.
static inline void tidings_xml_free(void *pointer) { xmlFree(pointer); }

#endif
