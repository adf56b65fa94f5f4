// libxml2, opened with dlopen on first use instead of linked: a program that parses nothing
// (`tidings --version`, `task add`, `items`) does not load libxml2 and what it brings (ICU,
// liblzma, zlib) at start-up. The functions the Feed module calls are defined here, under their own
// names and hidden from other libraries, each calling the one loaded. libxml2's own calls stay
// inside libxml2.
#include "libxml2_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#pragma GCC visibility push(hidden)
#if __has_include(<libxml/parser.h>)
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/entities.h>
#include <libxml/dict.h>
#include <libxml/tree.h>
#else
#include <libxml2/libxml/parser.h>
#include <libxml2/libxml/parserInternals.h>
#include <libxml2/libxml/SAX2.h>
#include <libxml2/libxml/entities.h>
#include <libxml2/libxml/dict.h>
#include <libxml2/libxml/tree.h>
#endif

static struct {
    int loaded;
    char error[200];
    void (*initParser)(void);
    xmlParserCtxtPtr (*createPushParserCtxt)(xmlSAXHandlerPtr, void *, const char *, int, const char *);
    int (*ctxtUseOptions)(xmlParserCtxtPtr, int);
    int (*parseChunk)(xmlParserCtxtPtr, const char *, int, int);
    void (*stopParser)(xmlParserCtxtPtr);
    void (*freeParserCtxt)(xmlParserCtxtPtr);
    void (*freeDoc)(xmlDocPtr);
    const xmlChar *(*dictLookup)(xmlDictPtr, const xmlChar *, int);
    xmlEntityPtr (*getPredefinedEntity)(const xmlChar *);
    xmlEntityPtr (*getDocEntity)(const xmlDoc *, const xmlChar *);
    void (*sax2StartDocument)(void *);
    void (*sax2InternalSubset)(void *, const xmlChar *, const xmlChar *, const xmlChar *);
    void (*sax2EntityDecl)(void *, const xmlChar *, int, const xmlChar *, const xmlChar *, xmlChar *);
    int (*sax2GetLineNumber)(void *);
} xml;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    const char *names[] = {"libxml2.so.2", "libxml2.so", "libxml2.2.dylib", "/usr/lib/libxml2.2.dylib", NULL};
    void *library = NULL;
    for (int i = 0; names[i] && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(xml.error, sizeof xml.error, "libxml2 is not installed (apt-get install libxml2)");
        return;
    }
#define LOAD(field, symbol)                                                                              \
    if (!(*(void **)&xml.field = dlsym(library, symbol))) {                                              \
        snprintf(xml.error, sizeof xml.error, "libxml2 has no %s", symbol);                              \
        return;                                                                                          \
    }
    LOAD(initParser, "xmlInitParser")
    LOAD(createPushParserCtxt, "xmlCreatePushParserCtxt")
    LOAD(ctxtUseOptions, "xmlCtxtUseOptions")
    LOAD(parseChunk, "xmlParseChunk")
    LOAD(stopParser, "xmlStopParser")
    LOAD(freeParserCtxt, "xmlFreeParserCtxt")
    LOAD(freeDoc, "xmlFreeDoc")
    LOAD(dictLookup, "xmlDictLookup")
    LOAD(getPredefinedEntity, "xmlGetPredefinedEntity")
    LOAD(getDocEntity, "xmlGetDocEntity")
    LOAD(sax2StartDocument, "xmlSAX2StartDocument")
    LOAD(sax2InternalSubset, "xmlSAX2InternalSubset")
    LOAD(sax2EntityDecl, "xmlSAX2EntityDecl")
    LOAD(sax2GetLineNumber, "xmlSAX2GetLineNumber")
#undef LOAD
    xml.initParser();
    xml.loaded = 1;
}

const char *tidings_xml_load_error(void) {
    pthread_once(&load_once, load);
    return xml.loaded ? NULL : xml.error;
}

// Every entry point loads libxml2 (once); the parser starts only through
// xmlCreatePushParserCtxt, which returns NULL when libxml2 cannot be loaded, and the other
// functions are only reached with what it returned (a context, its document, its dictionary)
// or from inside a parse.
void xmlInitParser(void) { (void)tidings_xml_load_error(); }

xmlParserCtxtPtr xmlCreatePushParserCtxt(
    xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename) {
    if (tidings_xml_load_error()) return NULL;
    return xml.createPushParserCtxt(sax, user_data, chunk, size, filename);
}

int xmlCtxtUseOptions(xmlParserCtxtPtr context, int options) { return xml.ctxtUseOptions(context, options); }

int xmlParseChunk(xmlParserCtxtPtr context, const char *chunk, int size, int terminate) {
    return xml.parseChunk(context, chunk, size, terminate);
}

void xmlStopParser(xmlParserCtxtPtr context) { xml.stopParser(context); }

void xmlFreeParserCtxt(xmlParserCtxtPtr context) { xml.freeParserCtxt(context); }

void xmlFreeDoc(xmlDocPtr document) { xml.freeDoc(document); }

const xmlChar *xmlDictLookup(xmlDictPtr dict, const xmlChar *name, int length) {
    return xml.dictLookup(dict, name, length);
}

xmlEntityPtr xmlGetPredefinedEntity(const xmlChar *name) {
    if (tidings_xml_load_error()) return NULL;
    return xml.getPredefinedEntity(name);
}

xmlEntityPtr xmlGetDocEntity(const xmlDoc *document, const xmlChar *name) { return xml.getDocEntity(document, name); }

void xmlSAX2StartDocument(void *context) { xml.sax2StartDocument(context); }

void xmlSAX2InternalSubset(void *context, const xmlChar *name, const xmlChar *externalID, const xmlChar *systemID) {
    xml.sax2InternalSubset(context, name, externalID, systemID);
}

void xmlSAX2EntityDecl(
    void *context, const xmlChar *name, int type, const xmlChar *publicId, const xmlChar *systemId, xmlChar *content) {
    xml.sax2EntityDecl(context, name, type, publicId, systemId, content);
}

int xmlSAX2GetLineNumber(void *context) { return xml.sax2GetLineNumber(context); }
#pragma GCC visibility pop
