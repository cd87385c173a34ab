#include "CSiteLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>
#include <libxml/xpath.h>

// The libraries whose ABI the headers describe. libxml2 2.14 changed its ABI and soname
// (libxml2.so.16: Debian's libxml2-16; before it libxml2.so.2); libcurl has been libcurl.so.4
// since 7.16.
#define CURL_LIBRARY "libcurl.so.4"
#if LIBXML_VERSION >= 21400
#define XML_LIBRARY "libxml2.so.16"
#else
#define XML_LIBRARY "libxml2.so.2"
#endif

// libxml2 2.12 passes the structured error handler a const error.
#if LIBXML_VERSION >= 21200
typedef const xmlError *structured_error;
#else
typedef xmlErrorPtr structured_error;
#endif

// MARK: Loading

/// Resolves `name` in `library` into `*slot`; on failure writes the reason and returns -1.
static int resolve(void *library, const char *name, void **slot, char *error, size_t error_size) {
    *slot = dlsym(library, name);
    if (*slot == NULL) {
        snprintf(error, error_size, "symbol %s missing", name);
        return -1;
    }
    return 0;
}

/// Resolves `prefix` `member` (e.g. "curl_" easy_init) into `table.member`.
#define RESOLVE_PREFIXED(library, table, prefix, member) \
    if (resolve(library, prefix #member, (void **)&table.member, load_error, sizeof load_error) != 0) return
#define RESOLVE(library, table, symbol) RESOLVE_PREFIXED(library, table, "", symbol)

// Members named without curl's "curl_": curl.h defines curl_easy_setopt and curl_easy_getinfo as
// function-like macros (its type checks, on for current compilers), which would expand a member
// of that name at every call.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static struct {
    void (*xmlInitParser)(void);
    htmlDocPtr (*htmlReadMemory)(const char *, int, const char *, const char *, int);
    xmlDocPtr (*xmlReadMemory)(const char *, int, const char *, const char *, int);
    void (*xmlFreeDoc)(xmlDocPtr);
    xmlNodePtr (*xmlDocGetRootElement)(const xmlDoc *);
    xmlXPathContextPtr (*xmlXPathNewContext)(xmlDocPtr);
    void (*xmlXPathFreeContext)(xmlXPathContextPtr);
    xmlXPathObjectPtr (*xmlXPathEvalExpression)(const xmlChar *, xmlXPathContextPtr);
    void (*xmlXPathFreeObject)(xmlXPathObjectPtr);
    xmlChar *(*xmlGetProp)(const xmlNode *, const xmlChar *);
    void (*xmlSetGenericErrorFunc)(void *, xmlGenericErrorFunc);
    void (*xmlSetStructuredErrorFunc)(void *, xmlStructuredErrorFunc);
    xmlFreeFunc *xmlFree; // a variable holding the deallocator, not a function
} xml;

static char load_error[256];
static int curl_status = -1, xml_status = -1;
static pthread_once_t curl_once = PTHREAD_ONCE_INIT, xml_once = PTHREAD_ONCE_INIT;

static void load_curl(void) {
    void *library = dlopen(CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "cannot load libcurl: %s", dlerror());
        return;
    }
    RESOLVE_PREFIXED(library, curl, "curl_", global_init);
    RESOLVE_PREFIXED(library, curl, "curl_", easy_init);
    RESOLVE_PREFIXED(library, curl, "curl_", easy_cleanup);
    RESOLVE_PREFIXED(library, curl, "curl_", easy_perform);
    RESOLVE_PREFIXED(library, curl, "curl_", easy_strerror);
    RESOLVE_PREFIXED(library, curl, "curl_", easy_setopt);
    RESOLVE_PREFIXED(library, curl, "curl_", easy_getinfo);
    RESOLVE_PREFIXED(library, curl, "curl_", slist_append);
    RESOLVE_PREFIXED(library, curl, "curl_", slist_free_all);
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl failed to initialise");
        return;
    }
    curl_status = 0;
}

static void ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static void ignore_structured_error(void *context, structured_error error) {
    (void)context;
    (void)error;
}

/// libxml2 keeps its error handlers per thread: set them on the thread about to parse.
static void silence_errors(void) {
    xml.xmlSetGenericErrorFunc(NULL, ignore_generic_error);
    xml.xmlSetStructuredErrorFunc(NULL, ignore_structured_error);
}

static void load_libxml2(void) {
    void *library = dlopen(XML_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "cannot load libxml2: %s", dlerror());
        return;
    }
    RESOLVE(library, xml, xmlInitParser);
    RESOLVE(library, xml, htmlReadMemory);
    RESOLVE(library, xml, xmlReadMemory);
    RESOLVE(library, xml, xmlFreeDoc);
    RESOLVE(library, xml, xmlDocGetRootElement);
    RESOLVE(library, xml, xmlXPathNewContext);
    RESOLVE(library, xml, xmlXPathFreeContext);
    RESOLVE(library, xml, xmlXPathEvalExpression);
    RESOLVE(library, xml, xmlXPathFreeObject);
    RESOLVE(library, xml, xmlGetProp);
    RESOLVE(library, xml, xmlSetGenericErrorFunc);
    RESOLVE(library, xml, xmlSetStructuredErrorFunc);
    RESOLVE(library, xml, xmlFree);
    xml.xmlInitParser();
    xml_status = 0;
}

static int report(int status, char *error, size_t error_size) {
    if (status != 0 && error != NULL && error_size > 0) snprintf(error, error_size, "%s", load_error);
    return status;
}

int csite_load_curl(char *error, size_t error_size) {
    pthread_once(&curl_once, load_curl);
    return report(curl_status, error, error_size);
}

int csite_load_libxml2(char *error, size_t error_size) {
    pthread_once(&xml_once, load_libxml2);
    return report(xml_status, error, error_size);
}

// MARK: libcurl

CURL *csite_curl_easy_init(void) { return curl.easy_init(); }
void csite_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode csite_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *csite_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode csite_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode csite_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode csite_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode csite_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode csite_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl.easy_setopt(handle, option, list);
}
CURLcode csite_curl_setopt_write_callback(CURL *handle, csite_write_callback callback, void *context) {
    CURLcode code = curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
    return code != CURLE_OK ? code : curl.easy_setopt(handle, CURLOPT_WRITEDATA, context);
}
CURLcode csite_curl_setopt_header_callback(CURL *handle, csite_write_callback callback, void *context) {
    CURLcode code = curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
    return code != CURLE_OK ? code : curl.easy_setopt(handle, CURLOPT_HEADERDATA, context);
}
CURLcode csite_curl_setopt_progress_callback(CURL *handle, csite_progress_callback callback, void *context) {
    CURLcode code = curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
    if (code == CURLE_OK) code = curl.easy_setopt(handle, CURLOPT_XFERINFODATA, context);
    return code != CURLE_OK ? code : curl.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
}
CURLcode csite_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode csite_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    char *text = NULL;
    CURLcode code = curl.easy_getinfo(handle, info, &text);
    *value = text;
    return code;
}
struct curl_slist *csite_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}
void csite_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

// MARK: libxml2

csite_document *csite_html_parse(const char *bytes, int length, const char *encoding) {
    silence_errors();
    int options = HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_COMPACT;
    return (csite_document *)xml.htmlReadMemory(bytes, length, NULL, encoding, options);
}

csite_document *csite_xml_parse(const char *bytes, int length) {
    silence_errors();
    // No XML_PARSE_NOENT (entities stay references) and no XML_PARSE_DTDLOAD.
    int options = XML_PARSE_RECOVER | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NONET | XML_PARSE_COMPACT;
    return (csite_document *)xml.xmlReadMemory(bytes, length, NULL, NULL, options);
}

void csite_document_free(csite_document *document) {
    if (document != NULL) xml.xmlFreeDoc((xmlDocPtr)document);
}

csite_node *csite_document_root(csite_document *document) {
    return (csite_node *)xml.xmlDocGetRootElement((xmlDocPtr)document);
}

csite_node_set *csite_xpath(csite_document *document, csite_node *context, const char *expression) {
    silence_errors();
    xmlXPathContextPtr xpath = xml.xmlXPathNewContext((xmlDocPtr)document);
    if (xpath == NULL) return NULL;
    if (context != NULL) xpath->node = (xmlNodePtr)context;
    xmlXPathObjectPtr result = xml.xmlXPathEvalExpression((const xmlChar *)expression, xpath);
    xml.xmlXPathFreeContext(xpath);
    if (result != NULL && result->type != XPATH_NODESET) {
        xml.xmlXPathFreeObject(result);
        return NULL;
    }
    return (csite_node_set *)result;
}

int csite_node_set_count(const csite_node_set *set) {
    const xmlXPathObject *object = (const xmlXPathObject *)set;
    return object->nodesetval == NULL ? 0 : object->nodesetval->nodeNr;
}

csite_node *csite_node_set_item(const csite_node_set *set, int index) {
    const xmlXPathObject *object = (const xmlXPathObject *)set;
    if (object->nodesetval == NULL || index < 0 || index >= object->nodesetval->nodeNr) return NULL;
    return (csite_node *)object->nodesetval->nodeTab[index];
}

void csite_node_set_free(csite_node_set *set) {
    if (set != NULL) xml.xmlXPathFreeObject((xmlXPathObjectPtr)set);
}

int csite_node_type(const csite_node *node) { return ((const xmlNode *)node)->type; }

const char *csite_node_name(const csite_node *node) {
    const xmlNode *element = (const xmlNode *)node;
    return element->type == XML_ELEMENT_NODE ? (const char *)element->name : NULL;
}

const char *csite_node_namespace(const csite_node *node) {
    const xmlNode *element = (const xmlNode *)node;
    return element->type == XML_ELEMENT_NODE && element->ns != NULL ? (const char *)element->ns->href : NULL;
}

csite_node *csite_node_first_child(const csite_node *node) {
    const xmlNode *element = (const xmlNode *)node;
    // An element's children, or an attribute's value as text nodes; entities' are not walked.
    return element->type == XML_ELEMENT_NODE || element->type == XML_ATTRIBUTE_NODE ? (csite_node *)element->children : NULL;
}

csite_node *csite_node_next_sibling(const csite_node *node) { return (csite_node *)((const xmlNode *)node)->next; }

const char *csite_node_text(const csite_node *node) {
    const xmlNode *text = (const xmlNode *)node;
    return text->type == XML_TEXT_NODE || text->type == XML_CDATA_SECTION_NODE ? (const char *)text->content : NULL;
}

int csite_node_is_named(const csite_node *node, const char *name) {
    const xmlNode *element = (const xmlNode *)node;
    return element->type == XML_ELEMENT_NODE && element->name != NULL && strcmp((const char *)element->name, name) == 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

int csite_node_has_class(const csite_node *node, const char *token) {
    const xmlNode *element = (const xmlNode *)node;
    if (element->type != XML_ELEMENT_NODE) return 0;
    for (const xmlAttr *attribute = element->properties; attribute != NULL; attribute = attribute->next) {
        if (attribute->name == NULL || strcmp((const char *)attribute->name, "class") != 0) continue;
        // The value's text nodes; the HTML parser gives one (entities already decoded).
        size_t length = strlen(token);
        for (const xmlNode *text = attribute->children; text != NULL; text = text->next) {
            if (text->type != XML_TEXT_NODE || text->content == NULL) continue;
            const char *value = (const char *)text->content;
            for (const char *start = strstr(value, token); start != NULL; start = strstr(start + 1, token)) {
                if ((start == value || is_space(start[-1])) && (start[length] == '\0' || is_space(start[length]))) return 1;
            }
        }
        return 0;
    }
    return 0;
}

char *csite_node_attribute(const csite_node *node, const char *name) {
    return (char *)xml.xmlGetProp((const xmlNode *)node, (const xmlChar *)name);
}

void csite_xml_free(void *pointer) {
    if (pointer != NULL) (*xml.xmlFree)(pointer);
}
