// libcurl and libxml2, loaded with dlopen on first use, behind typed wrappers.
//
// Why dlopen: libcurl's OpenSSL build pulls in some thirty shared libraries (OpenSSL, nghttp2,
// GSSAPI, LDAP, …). Linked into the one `dbmultiverse` binary, the dynamic loader would map and
// relocate all of them at every start of the long-running service and notifier, which never
// fetch anything. Loaded here, they cost only the commands that fetch.
//
// Why wrappers: curl_easy_setopt and curl_easy_getinfo are C variadics, which Swift cannot call,
// and libxml2's xmlFree is a variable holding a function pointer. libcurl's own header is included
// for its types and constants (it sits on the default include path); libxml2's types stay opaque.
#ifndef CSITE_LIBRARIES_H
#define CSITE_LIBRARIES_H

#include <stddef.h>
#include <curl/curl.h>

// MARK: Loading

/// Loads libcurl (once; later calls return the first outcome). 0 on success; otherwise -1 with
/// the reason (dlerror's text, or the missing symbol) in `error`.
int csite_load_curl(char *error, size_t error_size);
/// Loads libxml2 (once) and installs a no-op error handler, so the parsers print nothing.
int csite_load_libxml2(char *error, size_t error_size);

// MARK: libcurl (call only after csite_load_curl succeeded)

typedef size_t (*csite_write_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*csite_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                       curl_off_t upload_total, curl_off_t upload_now);

CURL *csite_curl_easy_init(void);
void csite_curl_easy_cleanup(CURL *handle);
CURLcode csite_curl_easy_perform(CURL *handle);
const char *csite_curl_easy_strerror(CURLcode code);
CURLcode csite_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode csite_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode csite_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode csite_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode csite_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list);
CURLcode csite_curl_setopt_write_callback(CURL *handle, csite_write_callback callback, void *context);
CURLcode csite_curl_setopt_header_callback(CURL *handle, csite_write_callback callback, void *context);
CURLcode csite_curl_setopt_progress_callback(CURL *handle, csite_progress_callback callback, void *context);
CURLcode csite_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// The string info (e.g. CURLINFO_REDIRECT_URL); NULL when there is none. Owned by the handle.
CURLcode csite_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);
struct curl_slist *csite_curl_slist_append(struct curl_slist *list, const char *text);
void csite_curl_slist_free_all(struct curl_slist *list);

// MARK: libxml2 (call only after csite_load_libxml2 succeeded)

/// A parsed document (xmlDoc), a node in it (xmlNode), a node set from XPath (xmlXPathObject).
typedef struct csite_document csite_document;
typedef struct csite_node csite_node;
typedef struct csite_node_set csite_node_set;

/// The HTML parser, forgiving as browsers are: no errors or warnings reported, no network.
/// `encoding` may be NULL (then the document's own declaration, else the parser's guess). NULL on
/// failure (empty or unusable input).
csite_document *csite_html_parse(const char *bytes, int length, const char *encoding);
/// The XML parser for feeds: no network, no entity substitution, no DTD loading, and recovery
/// from malformed markup. NULL on failure.
csite_document *csite_xml_parse(const char *bytes, int length);
void csite_document_free(csite_document *document);
csite_node *csite_document_root(csite_document *document);

/// Evaluates `expression` with `context` as the context node (NULL: the document). NULL when the
/// expression is invalid or the result is not a node set.
csite_node_set *csite_xpath(csite_document *document, csite_node *context, const char *expression);
int csite_node_set_count(const csite_node_set *set);
csite_node *csite_node_set_item(const csite_node_set *set, int index);
void csite_node_set_free(csite_node_set *set);

/// Element = 1, text = 3, CDATA = 4, … (libxml2's xmlElementType).
int csite_node_type(const csite_node *node);
/// The element's local name (lower-case for HTML), or NULL. Owned by the document.
const char *csite_node_name(const csite_node *node);
/// The namespace URI of the element, or NULL. Owned by the document.
const char *csite_node_namespace(const csite_node *node);
csite_node *csite_node_first_child(const csite_node *node);
csite_node *csite_node_next_sibling(const csite_node *node);
/// A text or CDATA node's own text, or NULL. Owned by the document.
const char *csite_node_text(const csite_node *node);
/// Whether the node is an element named `name` (ASCII, compared exactly), without allocating.
int csite_node_is_named(const csite_node *node, const char *name);
/// Whether the element's class attribute lists `token` as a whole word (separated by ASCII
/// whitespace), without allocating: the extractors ask it of every element they walk.
int csite_node_has_class(const csite_node *node, const char *token);
/// The attribute's value (entities decoded), or NULL when absent. Free with csite_xml_free.
char *csite_node_attribute(const csite_node *node, const char *name);
void csite_xml_free(void *pointer);

#endif
