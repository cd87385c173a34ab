/*
 * The benchmark's reference peer (not part of the product): the smallest libdbus service that
 * answers GetCurrentEntry the way a C programmer would write it — the libdbus main loop, one
 * message function, the reply built with dbus_message_iter for every call. It serves the same
 * placeholder entry (same keys, values and size) as `dbmultiverse service` under its own name,
 * so `make bench` can show what the bus and the client cost for that reply, apart from our code.
 */
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NAME "com.nobadi.DBMultiverse.Reference"

static void append_entry(DBusMessageIter *dict, const char *key, int type, const char *signature, const void *value) {
    DBusMessageIter entry, variant;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, signature, &variant);
    dbus_message_iter_append_basic(&variant, type, value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

static DBusHandlerResult handle(DBusConnection *connection, DBusMessage *message, void *data) {
    (void)data;
    if (!dbus_message_is_method_call(message, "com.nobadi.DBMultiverse.Widget1", "GetCurrentEntry"))
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    DBusMessage *reply = dbus_message_new_method_return(message);
    DBusMessageIter body, dict;
    dbus_int32_t chapter = 1, progress = 0;
    dbus_int64_t date = (dbus_int64_t)time(NULL);
    dbus_bool_t placeholder = TRUE;
    const char *name = "A Really Strange Tournament!", *image = "", *link = "dbmultiverse://chapter/1", *family = "medium";
    dbus_message_iter_init_append(reply, &body);
    dbus_message_iter_open_container(&body, DBUS_TYPE_ARRAY, "{sv}", &dict);
    append_entry(&dict, "chapter", DBUS_TYPE_INT32, "i", &chapter);
    append_entry(&dict, "name", DBUS_TYPE_STRING, "s", &name);
    append_entry(&dict, "progress", DBUS_TYPE_INT32, "i", &progress);
    append_entry(&dict, "image-path", DBUS_TYPE_STRING, "s", &image);
    append_entry(&dict, "deep-link", DBUS_TYPE_STRING, "s", &link);
    append_entry(&dict, "date", DBUS_TYPE_INT64, "x", &date);
    append_entry(&dict, "family", DBUS_TYPE_STRING, "s", &family);
    append_entry(&dict, "is-placeholder", DBUS_TYPE_BOOLEAN, "b", &placeholder);
    dbus_message_iter_close_container(&body, &dict);
    dbus_connection_send(connection, reply, NULL);
    dbus_message_unref(reply);
    return DBUS_HANDLER_RESULT_HANDLED;
}

int main(void) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_bus_get(DBUS_BUS_SESSION, &error);
    if (!connection) {
        fprintf(stderr, "dbus-reference-service: %s\n", error.message);
        return 1;
    }
    DBusObjectPathVTable vtable = { .message_function = handle };
    dbus_connection_register_object_path(connection, "/com/nobadi/DBMultiverse", &vtable, NULL);
    if (dbus_bus_request_name(connection, NAME, DBUS_NAME_FLAG_DO_NOT_QUEUE, &error) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "dbus-reference-service: cannot own %s\n", NAME);
        return 1;
    }
    while (dbus_connection_read_write_dispatch(connection, -1)) {}
    return 0;
}
