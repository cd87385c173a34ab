#ifndef CLINUXEVENTS_SHIM_H
#define CLINUXEVENTS_SHIM_H
// The Linux event interfaces Glibc's Swift module does not export.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <signal.h>
#endif
