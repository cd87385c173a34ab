// Holds a virtual pointer on a wlroots compositor (zwlr_virtual_pointer_manager_v1) until killed.
//
// Headless sway has no input devices, so its seat offers clients no pointer, and the clicks that
// `swaymsg seat seat0 cursor press …` sends reach nobody. With this device on the seat, clients
// (Waybar) get a wl_pointer and sway's seat cursor commands click for real.
//
// For tests only (scripts/real-hosts/tray-host-check.sh builds it). Written against libwayland-client's stable
// ABI without its development headers, which the test machine lacks: the two interfaces of the
// protocol are declared here as wayland-scanner would generate them.
// Build: cc -o virtual-pointer virtual-pointer.c -l:libwayland-client.so.0
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct wl_proxy;
struct wl_display;
struct wl_message { const char *name; const char *signature; const struct wl_interface **types; };
struct wl_interface {
    const char *name;
    int version;
    int method_count;
    const struct wl_message *methods;
    int event_count;
    const struct wl_message *events;
};

extern const struct wl_interface wl_registry_interface, wl_seat_interface;
struct wl_display *wl_display_connect(const char *name);
int wl_display_roundtrip(struct wl_display *display);
int wl_display_dispatch(struct wl_display *display);
int wl_display_flush(struct wl_display *display);
int wl_proxy_add_listener(struct wl_proxy *proxy, void (**implementation)(void), void *data);
struct wl_proxy *wl_proxy_marshal_constructor(struct wl_proxy *proxy, uint32_t opcode, const struct wl_interface *interface, ...);
struct wl_proxy *wl_proxy_marshal_constructor_versioned(struct wl_proxy *proxy, uint32_t opcode,
                                                        const struct wl_interface *interface, uint32_t version, ...);
void wl_proxy_marshal(struct wl_proxy *proxy, uint32_t opcode, ...);

// wlr-virtual-pointer-unstable-v1, version 1.
extern const struct wl_interface pointer_interface;
static const struct wl_interface *no_types[] = {NULL, NULL, NULL, NULL, NULL};
static const struct wl_interface *create_types[] = {&wl_seat_interface, &pointer_interface};
static const struct wl_message pointer_requests[] = {
    {"motion", "uff", no_types},
    {"motion_absolute", "uuuuu", no_types},
    {"button", "uuu", no_types},
    {"axis", "uuf", no_types},
    {"frame", "", no_types},
    {"axis_source", "u", no_types},
    {"axis_stop", "uu", no_types},
    {"axis_discrete", "uufi", no_types},
    {"destroy", "", no_types},
};
const struct wl_interface pointer_interface = {"zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0, NULL};
static const struct wl_message manager_requests[] = {
    {"create_virtual_pointer", "?on", create_types},
    {"destroy", "", no_types},
};
static const struct wl_interface manager_interface = {"zwlr_virtual_pointer_manager_v1", 1, 2, manager_requests, 0, NULL};

static struct wl_proxy *manager;

static void global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    (void)version;
    if (strcmp(interface, manager_interface.name) == 0) {
        manager = wl_proxy_marshal_constructor_versioned(registry, 0, &manager_interface, 1, name, manager_interface.name, 1, NULL);
    }
}

static void global_remove(void *data, struct wl_proxy *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

int main(void) {
    struct wl_display *display = wl_display_connect(NULL);
    if (display == NULL) {
        fprintf(stderr, "virtual-pointer: cannot connect to the Wayland display\n");
        return 1;
    }
    struct wl_proxy *registry = wl_proxy_marshal_constructor((struct wl_proxy *)display, 1, &wl_registry_interface, NULL);
    void (*listener[])(void) = {(void (*)(void))global, (void (*)(void))global_remove};
    wl_proxy_add_listener(registry, listener, NULL);
    wl_display_roundtrip(display);
    if (manager == NULL) {
        fprintf(stderr, "virtual-pointer: the compositor has no %s\n", manager_interface.name);
        return 1;
    }
    struct wl_proxy *pointer = wl_proxy_marshal_constructor(manager, 0, &pointer_interface, NULL, NULL);
    wl_proxy_marshal(pointer, 1, 0u, 0u, 0u, 1u, 1u); // motion_absolute to the top left corner
    wl_proxy_marshal(pointer, 4);                      // frame
    wl_display_roundtrip(display);
    printf("ready\n");
    fflush(stdout);
    while (wl_display_dispatch(display) != -1) {
    }
    return 0;
}
