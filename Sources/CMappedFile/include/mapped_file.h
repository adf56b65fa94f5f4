// Private mappings of local files that survive the file shrinking under them.
#ifndef TIDINGS_MAPPED_FILE_H
#define TIDINGS_MAPPED_FILE_H

#include <stddef.h>

/// Maps the first `length` bytes of the open file `descriptor` privately (writes change this
/// process's copy only) and returns their address, or NULL (with errno set) when the file
/// cannot be mapped or too many mappings are open: the caller then reads the file instead.
///
/// When another program truncates the file while it is mapped, reading past its new end would
/// kill the process (SIGBUS). Inside a mapping made here it reads zeros instead, and
/// `tidings_unmap_file` reports it. Pages not read yet show the file as it is when they are
/// first read: a file changed in place meanwhile reads partly old, partly new.
const void *tidings_map_file(int descriptor, size_t length);

/// Unmaps what `tidings_map_file` mapped; returns 1 when the file shrank while it was mapped
/// and some of it read as zeros, 0 otherwise.
int tidings_unmap_file(const void *address, size_t length);

#endif
