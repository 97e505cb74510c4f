/* An LD_PRELOAD shim that makes write(2), pwrite(2) or fsync(2) fail with a chosen errno on the
 * files whose path contains a chosen text, after letting a number of those calls succeed. It lets
 * fault_injection_test.sh give the writer an EIO or ENOSPC in the middle of a shard, the catalog,
 * a payload file or the final fsyncs, which no filesystem does on demand.
 *
 *   TIMEF_FAULT_MATCH  substring of the file's path (/proc/self/fd/N), required
 *   TIMEF_FAULT_OP     write (write, pwrite, pwrite64) or fsync (fsync, fdatasync)
 *   TIMEF_FAULT_ERRNO  EIO or ENOSPC
 *   TIMEF_FAULT_SKIP   matching calls that succeed before the first failure (default 0)
 *
 * Every call after the first failure on a matching file fails too, as a dying disk would. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static long matching_calls = 0;

static int should_fail(int fd, const char *op) {
  const char *match = getenv("TIMEF_FAULT_MATCH");
  const char *want = getenv("TIMEF_FAULT_OP");
  if (match == NULL || want == NULL || strcmp(want, op) != 0) return 0;
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = '\0';
  if (strstr(path, match) == NULL) return 0;
  const char *skip = getenv("TIMEF_FAULT_SKIP");
  if (matching_calls++ < (skip ? atol(skip) : 0)) return 0;
  const char *code = getenv("TIMEF_FAULT_ERRNO");
  errno = (code != NULL && strcmp(code, "ENOSPC") == 0) ? ENOSPC : EIO;
  return 1;
}

#define NEXT(name, type) ((type)dlsym(RTLD_NEXT, name))

ssize_t write(int fd, const void *buf, size_t count) {
  if (should_fail(fd, "write")) return -1;
  return NEXT("write", ssize_t (*)(int, const void *, size_t))(fd, buf, count);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  if (should_fail(fd, "write")) return -1;
  return NEXT("pwrite", ssize_t (*)(int, const void *, size_t, off_t))(fd, buf, count, offset);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) {
  if (should_fail(fd, "write")) return -1;
  return NEXT("pwrite64", ssize_t (*)(int, const void *, size_t, off_t))(fd, buf, count, offset);
}

int fsync(int fd) {
  if (should_fail(fd, "fsync")) return -1;
  return NEXT("fsync", int (*)(int))(fd);
}

int fdatasync(int fd) {
  if (should_fail(fd, "fsync")) return -1;
  return NEXT("fdatasync", int (*)(int))(fd);
}
