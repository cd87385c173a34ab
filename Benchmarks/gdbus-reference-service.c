/*
 * The benchmark's second reference peer (not part of the product): the same GetCurrentEntry reply
 * as TestSupport/dbus-reference-service, served with GIO's GDBus the way a GLib program does it (a
 * GMainLoop, g_bus_own_name, an object registered from introspection XML, the reply built as a
 * GVariant per call), under its own name. `make bench` builds it with the C compiler against
 * libglib2.0-dev and compares the service's resident memory with this one's after the same load.
 */
#include <gio/gio.h>
#include <time.h>

#define NAME "com.nobadi.DBMultiverse.GDBusReference"

static const char introspection[] =
    "<node><interface name='com.nobadi.DBMultiverse.Widget1'>"
    "<method name='GetCurrentEntry'><arg type='a{sv}' name='entry' direction='out'/></method>"
    "</interface></node>";

static void handle(GDBusConnection *connection, const gchar *sender, const gchar *path, const gchar *interface,
                   const gchar *method, GVariant *parameters, GDBusMethodInvocation *invocation, gpointer data) {
    (void)connection; (void)sender; (void)path; (void)interface; (void)parameters; (void)data;
    if (g_strcmp0(method, "GetCurrentEntry") != 0) {
        g_dbus_method_invocation_return_error(invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD, "no method %s", method);
        return;
    }
    GVariantBuilder entry;
    g_variant_builder_init(&entry, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&entry, "{sv}", "chapter", g_variant_new_int32(1));
    g_variant_builder_add(&entry, "{sv}", "name", g_variant_new_string("A Really Strange Tournament!"));
    g_variant_builder_add(&entry, "{sv}", "progress", g_variant_new_int32(0));
    g_variant_builder_add(&entry, "{sv}", "image-path", g_variant_new_string(""));
    g_variant_builder_add(&entry, "{sv}", "deep-link", g_variant_new_string("dbmultiverse://chapter/1"));
    g_variant_builder_add(&entry, "{sv}", "date", g_variant_new_int64((gint64)time(NULL)));
    g_variant_builder_add(&entry, "{sv}", "family", g_variant_new_string("medium"));
    g_variant_builder_add(&entry, "{sv}", "is-placeholder", g_variant_new_boolean(TRUE));
    g_dbus_method_invocation_return_value(invocation, g_variant_new("(a{sv})", &entry));
}

static const GDBusInterfaceVTable vtable = { .method_call = handle };

static void on_bus(GDBusConnection *connection, const gchar *name, gpointer data) {
    (void)name;
    GDBusNodeInfo *node = data;
    g_dbus_connection_register_object(connection, "/com/nobadi/DBMultiverse", node->interfaces[0], &vtable, NULL, NULL, NULL);
}

static void on_lost(GDBusConnection *connection, const gchar *name, gpointer data) {
    (void)connection; (void)data;
    g_printerr("gdbus-reference-service: cannot own %s\n", name);
    exit(1);
}

int main(void) {
    GDBusNodeInfo *node = g_dbus_node_info_new_for_xml(introspection, NULL);
    g_bus_own_name(G_BUS_TYPE_SESSION, NAME, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE, on_bus, NULL, on_lost, node, NULL);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
