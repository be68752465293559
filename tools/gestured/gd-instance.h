/*
 * utouch-gestured: one daemon per user.  Installing both the systemd user
 * unit and the XDG autostart entry (or starting it by hand next to a
 * running one) must not start two daemons that grab the same devices and
 * run every action twice.
 */
#ifndef GD_INSTANCE_H
#define GD_INSTANCE_H

#include <stddef.h>
#include <sys/types.h>

/**
 * Take the lock $XDG_RUNTIME_DIR/utouch-gestured.lock (flock, held for the
 * life of the returned descriptor, which is close-on-exec so that no
 * action inherits it; the kernel drops it when the daemon dies).  Without
 * XDG_RUNTIME_DIR the lock lives in /tmp/utouch-gestured-UID.lock.  A
 * lock taken on a file that another daemon removed as it ended is given
 * up for the file now at the path.
 *
 * @param holder set to the pid written by the daemon holding the lock,
 *        when this call returns -EWOULDBLOCK (0 if unknown)
 * @param err a message for any other failure
 * @return the lock's descriptor; -EWOULDBLOCK when another daemon holds
 *         it; another negative errno value with @p err set
 */
int gd_instance_lock(pid_t *holder, char *err, size_t errlen);

/**
 * Give the lock back at a clean exit: remove the file (while still
 * holding it, and only when it is still the one at the path) and close
 * @p fd.  A negative @p fd is ignored.  A daemon killed (SIGKILL) leaves
 * the file behind, unlocked; the next one uses it.
 */
void gd_instance_unlock(int fd);

#endif /* GD_INSTANCE_H */
