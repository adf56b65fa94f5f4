// libxml2, opened with dlopen on first use (see loader.c).
#ifndef TIDINGS_LIBXML2_LOADER_H
#define TIDINGS_LIBXML2_LOADER_H

/// Loads libxml2 if it is not loaded yet; NULL once it is, else why it cannot be (the parser's
/// entry points then fail as if libxml2 could not start: no context, no document).
const char *tidings_xml_load_error(void);

#endif
