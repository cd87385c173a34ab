#ifndef CDBUS_SHIM_H
#define CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
