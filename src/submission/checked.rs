//! A C or C++ program's checked build: the same source compiled again
//! with the compiler's sanitizers (AddressSanitizer and
//! UndefinedBehaviorSanitizer, debug information, frame pointers kept),
//! and once more for the compiler's warnings only. It is made when first
//! asked for: a default `grade` asks only for a program that failed a
//! case (and, in a suite that counts leaks, for its first case).
//!
//! Its runs are in [`super::sanitized`]; grades never come from them.

use std::path::{Path, PathBuf};

use std::sync::{Arc, Mutex, OnceLock};

use super::build::{compile_object, compile_with_retry, compiler_messages, Recipe};
use super::cache;
use super::hold::{Facts, Hold, Probe, Unheld};
use super::languages::{Compiler, Family};
use super::linker;
use super::start::Support;
use crate::run::Program;

/// What the checked build adds to the program's own flags. The
/// sanitizers' libraries are linked statically: linked dynamically, gcc's
/// two runtimes each keep a report file of their own, and one of them
/// prints on the terminal whatever its options say.
pub const SANITIZER_FLAGS: &[&str] = &[
    "-g",
    "-O0",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-static-libasan",
    "-static-libubsan",
];

/// What the checked build's link adds: the program's own calls of the
/// allocator go to referee's wrappers (in [`OPTIONS_SOURCE`]), which
/// count what is still allocated when the program ends where a run asks
/// for it (a suite's `leaks: true`), and otherwise only pass the call on.
/// Only the program's objects are wrapped: the C library's allocations
/// (stdio's buffers) never reach them, nor C++'s library's. In a C
/// program nothing calls C++'s `new` and `delete`: the sanitizer's
/// runtime, linked statically, still defines what their wrappers call.
const WRAPPED: &str = "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,\
    --wrap=strdup,--wrap=strndup,--wrap=getline,--wrap=getdelim,\
    --wrap=_Znwm,--wrap=_Znam,--wrap=_ZdlPv,--wrap=_ZdaPv,--wrap=_ZdlPvm,--wrap=_ZdaPvm";

/// clang's: its sanitizers' runtime (one, for both) is linked
/// statically by `-static-libsan` (clang's default on Linux, said all
/// the same); gcc's `-static-libasan` is unknown to it.
pub const CLANG_SANITIZER_FLAGS: &[&str] = &[
    "-g",
    "-O0",
    "-fno-omit-frame-pointer",
    "-fsanitize=address,undefined",
    "-static-libsan",
];

/// What the checked build of a program compiled by `compiler` adds.
pub fn sanitizer_flags(compiler: &Compiler) -> &'static [&'static str] {
    match compiler.family {
        Family::Gcc => SANITIZER_FLAGS,
        Family::Clang => CLANG_SANITIZER_FLAGS,
    }
}

/// The source linked into every checked build that gives the
/// sanitizers their options. They read `ASAN_OPTIONS` and
/// `UBSAN_OPTIONS` through `/proc/self/environ`, which the sandbox's
/// minimal root does not have, and before the C library knows its
/// environment; these functions, which they call first, find the same
/// variables where the kernel put them, above the start of the stack
/// (as the sanitizers find `argv`). Both must say the same report file:
/// the two runtimes share one. The functions are not instrumented
/// (they run before the sanitizers are ready), and the file is compiled
/// as C with the program's own flags, so it is written to draw no
/// warning.
const OPTIONS_SOURCE: &str = r#"/* Written by referee for the checked build: the sanitizers' options,
   read from the environment; where a suite asks, the count of what the
   program still holds when it ends; and, where nothing else holds a
   run's memory, the hold (see referee's src/submission/checked.rs and
   hold.rs). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
extern void *__libc_stack_end __attribute__((weak));
const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

__attribute__((no_sanitize("address", "undefined")))
static const char *referee_option(const char *name)
{
    char **envp;
    unsigned long argc;
    if (&__libc_stack_end == 0 || __libc_stack_end == 0)
        return "";
    argc = *(unsigned long *)__libc_stack_end;
    for (envp = (char **)__libc_stack_end + argc + 2; *envp != 0; envp++) {
        const char *a = *envp;
        const char *b = name;
        while (*b != 0 && *a == *b) {
            a++;
            b++;
        }
        if (*b == 0 && *a == '=')
            return a + 1;
    }
    return "";
}

__attribute__((no_sanitize("address", "undefined")))
const char *__asan_default_options(void)
{
    return referee_option("ASAN_OPTIONS");
}

__attribute__((no_sanitize("address", "undefined")))
const char *__ubsan_default_options(void)
{
    return referee_option("UBSAN_OPTIONS");
}

/* The hold: with REFEREE_HOLD=<bytes> in the environment, run from
   .preinit_array right after the sanitizer's start (its shadow is reserved
   by then) and before anything of the program's. A thread ends the process
   once its resident memory passes <bytes> (looked at every 10 ms, through
   getrusage: nothing of /proc is needed); the address space is limited to
   what is mapped then plus <bytes>; and a seccomp filter refuses every new
   process and every exec. A run that cannot be held ends at once, with
   status 125. */
#ifdef SYS_fork
#define REFEREE_FORKS 2
#else
#define REFEREE_FORKS 0
#endif
#if defined(__x86_64__)
#define REFEREE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define REFEREE_ARCH AUDIT_ARCH_AARCH64
#endif

static unsigned long referee_held_kib;

__attribute__((no_sanitize("address", "undefined")))
static void referee_say(const char *what)
{
    const char *end = what;
    while (*end != 0)
        end++;
    syscall(SYS_write, 2, what, (size_t)(end - what));
}

__attribute__((no_sanitize("address", "undefined"), noreturn))
static void referee_refuse(const char *why)
{
    referee_say("referee: this checked run cannot be held: ");
    referee_say(why);
    referee_say("\n");
    syscall(SYS_exit_group, 125);
    for (;;) {
    }
}

__attribute__((no_sanitize("address", "undefined")))
static void *referee_watch(void *unused)
{
    struct rusage use;
    struct timespec tick;
    (void)unused;
    tick.tv_sec = 0;
    tick.tv_nsec = 10000000;
    for (;;) {
        if (syscall(SYS_getrusage, RUSAGE_SELF, &use) == 0
            && (unsigned long)use.ru_maxrss > referee_held_kib) {
            referee_say("referee: this checked run held more memory than its limit\n");
            syscall(SYS_kill, syscall(SYS_getpid), SIGKILL);
        }
        syscall(SYS_nanosleep, &tick, 0);
    }
    return 0;
}

/* Whether one more page can be mapped with the address space limited to
   `limit` (-1: the limit cannot be set). */
__attribute__((no_sanitize("address", "undefined")))
static int referee_fits(unsigned long limit, unsigned long most)
{
    struct rlimit r;
    long page;
    r.rlim_cur = limit;
    r.rlim_max = most;
    if (syscall(SYS_prlimit64, 0, RLIMIT_AS, &r, 0) != 0)
        return -1;
    page = syscall(SYS_mmap, 0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == -1)
        return 0;
    syscall(SYS_munmap, page, 4096);
    return 1;
}

/* What the process has mapped, to a page: the least address-space limit
   under which one more page fits, found by halving (no /proc needed). */
__attribute__((no_sanitize("address", "undefined")))
static unsigned long referee_mapped(unsigned long most)
{
    unsigned long low = 0;
    unsigned long high = most;
    if (referee_fits(high, most) != 1)
        return 0;
    while (high - low > 4096) {
        unsigned long middle = low + (high - low) / 2;
        int fits = referee_fits(middle, most);
        if (fits < 0)
            return 0;
        if (fits)
            high = middle;
        else
            low = middle;
    }
    return high - 4096;
}

/* The leak count: with REFEREE_LEAKS=<file> in the environment, the
   program's own allocations (its calls of malloc and the rest, which the
   checked build's link sends here with -Wl,--wrap) are kept in a table,
   each with its size and the place that asked for it; at the end of a
   run that ends normally (an atexit handler registered here, before any
   of the program's, runs last) what is still allocated is written to
   <file>: the bytes and blocks, and the places that allocated the most.
   The C library's own allocations (stdio's buffers) never come here.
   The table is mapped before the hold measures what is mapped: it costs
   the program nothing of its memory limit but the pages it touches. */

#define REFEREE_SLOTS (1UL << 20)
#define REFEREE_MOST (REFEREE_SLOTS / 4 * 3)
#define REFEREE_SITES 256
#define REFEREE_SAID 32

struct referee_block {
    unsigned long address;
    unsigned long size;
    unsigned long site;
};

static struct referee_block *referee_blocks;
static unsigned long referee_kept;
static unsigned long referee_missed;
static unsigned long referee_bias;
static const char *referee_leak_file;
static volatile char referee_busy;

__attribute__((no_sanitize("address", "undefined")))
static void referee_lock(void)
{
    while (__atomic_test_and_set(&referee_busy, __ATOMIC_ACQUIRE)) {
    }
}

__attribute__((no_sanitize("address", "undefined")))
static void referee_unlock(void)
{
    __atomic_clear(&referee_busy, __ATOMIC_RELEASE);
}

__attribute__((no_sanitize("address", "undefined")))
static unsigned long referee_slot(unsigned long address)
{
    return (address >> 4) * 0x9e3779b97f4a7c15UL >> 44 & (REFEREE_SLOTS - 1);
}

__attribute__((no_sanitize("address", "undefined")))
static void referee_keep(void *pointer, unsigned long size, void *caller)
{
    unsigned long address = (unsigned long)pointer;
    unsigned long at;
    if (referee_blocks == 0 || pointer == 0)
        return;
    referee_lock();
    if (referee_kept >= REFEREE_MOST) {
        referee_missed++;
        referee_unlock();
        return;
    }
    at = referee_slot(address);
    while (referee_blocks[at].address != 0 && referee_blocks[at].address != address)
        at = (at + 1) & (REFEREE_SLOTS - 1);
    if (referee_blocks[at].address == 0)
        referee_kept++;
    referee_blocks[at].address = address;
    referee_blocks[at].size = size;
    /* The call's own line: the return address is just after it. */
    referee_blocks[at].site = (unsigned long)caller - 1 - referee_bias;
    referee_unlock();
}

/* Forgets `pointer`, closing the gap it leaves (linear probing keeps no
   tombstones). */
__attribute__((no_sanitize("address", "undefined")))
static void referee_forget(void *pointer)
{
    unsigned long address = (unsigned long)pointer;
    unsigned long at, next;
    if (referee_blocks == 0 || pointer == 0)
        return;
    referee_lock();
    at = referee_slot(address);
    while (referee_blocks[at].address != address) {
        if (referee_blocks[at].address == 0) {
            referee_unlock();
            return;
        }
        at = (at + 1) & (REFEREE_SLOTS - 1);
    }
    referee_blocks[at].address = 0;
    referee_kept--;
    for (next = (at + 1) & (REFEREE_SLOTS - 1); referee_blocks[next].address != 0;
         next = (next + 1) & (REFEREE_SLOTS - 1)) {
        unsigned long home = referee_slot(referee_blocks[next].address);
        /* Moved back where `home` reaches `at` before `next`. */
        if (((next - home) & (REFEREE_SLOTS - 1)) >= ((next - at) & (REFEREE_SLOTS - 1))) {
            referee_blocks[at] = referee_blocks[next];
            referee_blocks[next].address = 0;
            at = next;
        }
    }
    referee_unlock();
}

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *old, size_t size);
void __wrap_free(void *pointer);
char *__wrap_strdup(const char *text);
char *__wrap_strndup(const char *text, size_t most);
ssize_t __wrap_getline(char **line, size_t *size, FILE *stream);
ssize_t __wrap_getdelim(char **line, size_t *size, int delimiter, FILE *stream);
void *__wrap__Znwm(size_t size);
void *__wrap__Znam(size_t size);
void __wrap__ZdlPv(void *pointer);
void __wrap__ZdaPv(void *pointer);
void __wrap__ZdlPvm(void *pointer, size_t size);
void __wrap__ZdaPvm(void *pointer, size_t size);
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *pointer, size_t size);
void __real_free(void *pointer);
char *__real_strdup(const char *text);
char *__real_strndup(const char *text, size_t most);
ssize_t __real_getline(char **line, size_t *size, FILE *stream);
ssize_t __real_getdelim(char **line, size_t *size, int delimiter, FILE *stream);

__attribute__((no_sanitize("address", "undefined")))
void *__wrap_malloc(size_t size)
{
    void *pointer = __real_malloc(size);
    referee_keep(pointer, size, __builtin_return_address(0));
    return pointer;
}

__attribute__((no_sanitize("address", "undefined")))
void *__wrap_calloc(size_t count, size_t size)
{
    void *pointer = __real_calloc(count, size);
    referee_keep(pointer, count * size, __builtin_return_address(0));
    return pointer;
}

__attribute__((no_sanitize("address", "undefined")))
void *__wrap_realloc(void *old, size_t size)
{
    void *pointer = __real_realloc(old, size);
    if (pointer != 0 || size == 0)
        referee_forget(old);
    referee_keep(pointer, size, __builtin_return_address(0));
    return pointer;
}

__attribute__((no_sanitize("address", "undefined")))
void __wrap_free(void *pointer)
{
    referee_forget(pointer);
    __real_free(pointer);
}

__attribute__((no_sanitize("address", "undefined")))
char *__wrap_strdup(const char *text)
{
    char *copy = __real_strdup(text);
    if (copy != 0)
        referee_keep(copy, strlen(copy) + 1, __builtin_return_address(0));
    return copy;
}

__attribute__((no_sanitize("address", "undefined")))
char *__wrap_strndup(const char *text, size_t most)
{
    char *copy = __real_strndup(text, most);
    if (copy != 0)
        referee_keep(copy, strlen(copy) + 1, __builtin_return_address(0));
    return copy;
}

/* getline and getdelim allocate and grow the line themselves, inside the
   C library: the line is the program's to free. */
__attribute__((no_sanitize("address", "undefined")))
static void referee_line(char *old, char **line, size_t *size, void *caller)
{
    if (*line != old) {
        referee_forget(old);
        referee_keep(*line, *size, caller);
    }
}

__attribute__((no_sanitize("address", "undefined")))
ssize_t __wrap_getline(char **line, size_t *size, FILE *stream)
{
    char *old = *line;
    ssize_t got = __real_getline(line, size, stream);
    referee_line(old, line, size, __builtin_return_address(0));
    return got;
}

__attribute__((no_sanitize("address", "undefined")))
ssize_t __wrap_getdelim(char **line, size_t *size, int delimiter, FILE *stream)
{
    char *old = *line;
    ssize_t got = __real_getdelim(line, size, delimiter, stream);
    referee_line(old, line, size, __builtin_return_address(0));
    return got;
}

/* C++'s new and delete (the options' source is compiled as C, so
   under their linked names). Weak: a C program linked by clang has no
   C++ runtime (clang's sanitizer brings operator new only to C++), and
   in a C program nothing calls them. */
void *__real__Znwm(size_t size) __attribute__((weak));
void *__real__Znam(size_t size) __attribute__((weak));
void __real__ZdlPv(void *pointer) __attribute__((weak));
void __real__ZdaPv(void *pointer) __attribute__((weak));
void __real__ZdlPvm(void *pointer, size_t size) __attribute__((weak));
void __real__ZdaPvm(void *pointer, size_t size) __attribute__((weak));

__attribute__((no_sanitize("address", "undefined")))
void *__wrap__Znwm(size_t size)
{
    void *pointer = __real__Znwm(size);
    referee_keep(pointer, size, __builtin_return_address(0));
    return pointer;
}

__attribute__((no_sanitize("address", "undefined")))
void *__wrap__Znam(size_t size)
{
    void *pointer = __real__Znam(size);
    referee_keep(pointer, size, __builtin_return_address(0));
    return pointer;
}

__attribute__((no_sanitize("address", "undefined")))
void __wrap__ZdlPv(void *pointer)
{
    referee_forget(pointer);
    __real__ZdlPv(pointer);
}

__attribute__((no_sanitize("address", "undefined")))
void __wrap__ZdaPv(void *pointer)
{
    referee_forget(pointer);
    __real__ZdaPv(pointer);
}

__attribute__((no_sanitize("address", "undefined")))
void __wrap__ZdlPvm(void *pointer, size_t size)
{
    referee_forget(pointer);
    __real__ZdlPvm(pointer, size);
}

__attribute__((no_sanitize("address", "undefined")))
void __wrap__ZdaPvm(void *pointer, size_t size)
{
    referee_forget(pointer);
    __real__ZdaPvm(pointer, size);
}

/* A number, in `base`, at the end of `buffer` (of 24 bytes): where it
   starts. */
__attribute__((no_sanitize("address", "undefined")))
static char *referee_number(char *end, unsigned long n, unsigned base)
{
    *--end = 0;
    do {
        *--end = "0123456789abcdef"[n % base];
        n /= base;
    } while (n != 0);
    return end;
}

__attribute__((no_sanitize("address", "undefined")))
static void referee_put(int fd, const char *text)
{
    const char *end = text;
    while (*end != 0)
        end++;
    syscall(SYS_write, fd, text, (size_t)(end - text));
}

__attribute__((no_sanitize("address", "undefined")))
static void referee_put_numbers(int fd, const char *what, unsigned long a, unsigned long b, unsigned long c, int three)
{
    char buffer[24];
    referee_put(fd, what);
    referee_put(fd, " ");
    referee_put(fd, referee_number(buffer + sizeof buffer, a, three ? 16 : 10));
    referee_put(fd, " ");
    referee_put(fd, referee_number(buffer + sizeof buffer, b, 10));
    if (three) {
        referee_put(fd, " ");
        referee_put(fd, referee_number(buffer + sizeof buffer, c, 10));
    }
    referee_put(fd, "\n");
}

struct referee_site {
    unsigned long site;
    unsigned long bytes;
    unsigned long blocks;
};

/* What is still allocated, written where REFEREE_LEAKS says: the totals,
   then the places that allocated the most, most first. */
__attribute__((no_sanitize("address", "undefined")))
static void referee_leaks_said(void)
{
    static struct referee_site sites[REFEREE_SITES];
    unsigned long bytes = 0, blocks = 0, used = 0, i, j;
    int fd;
    if (referee_blocks == 0)
        return;
    referee_lock();
    for (i = 0; i < REFEREE_SLOTS; i++) {
        struct referee_block *b = &referee_blocks[i];
        if (b->address == 0)
            continue;
        bytes += b->size;
        blocks++;
        for (j = 0; j < used && sites[j].site != b->site; j++) {
        }
        if (j == used && used < REFEREE_SITES)
            sites[used++].site = b->site;
        if (j < used) {
            sites[j].bytes += b->size;
            sites[j].blocks++;
        }
    }
    referee_unlock();
    fd = (int)syscall(SYS_openat, AT_FDCWD, referee_leak_file,
                      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return;
    referee_put(fd, "referee leaks 1\n");
    referee_put_numbers(fd, "still", bytes, blocks, 0, 0);
    referee_put_numbers(fd, "missed", referee_missed, 0, 0, 0);
    for (i = 0; i < REFEREE_SAID && i < used; i++) {
        unsigned long most = i;
        struct referee_site swap;
        for (j = i + 1; j < used; j++)
            if (sites[j].bytes > sites[most].bytes)
                most = j;
        swap = sites[i];
        sites[i] = sites[most];
        sites[most] = swap;
        referee_put_numbers(fd, "site", sites[i].site, sites[i].bytes, sites[i].blocks, 1);
    }
    referee_put(fd, "end\n");
    syscall(SYS_close, fd);
}

/* Where the program was loaded: what its code's addresses are offset by
   from those its debug information gives. */
__attribute__((no_sanitize("address", "undefined")))
static unsigned long referee_load_bias(void)
{
    const ElfW(Phdr) *headers = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    unsigned long count = getauxval(AT_PHNUM), i;
    for (i = 0; headers != 0 && i < count; i++)
        if (headers[i].p_type == PT_PHDR)
            return (unsigned long)headers - headers[i].p_vaddr;
    return 0;
}

/* Run from the hold, at preinit, before the program's own code. */
__attribute__((no_sanitize("address", "undefined")))
static void referee_leaks_start(void)
{
    long table;
    referee_leak_file = referee_option("REFEREE_LEAKS");
    if (*referee_leak_file == 0)
        return;
    table = syscall(SYS_mmap, 0, REFEREE_SLOTS * sizeof(struct referee_block),
                    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (table == -1)
        return;
    referee_bias = referee_load_bias();
    if (atexit(referee_leaks_said) != 0)
        return;
    referee_blocks = (struct referee_block *)table;
}

__attribute__((no_sanitize("address", "undefined")))
static void referee_hold(void)
{
    const char *hold = referee_option("REFEREE_HOLD");
    unsigned long extra = 0;
    unsigned long mapped;
    struct rlimit limit;
    pthread_t watcher;
#ifdef REFEREE_ARCH
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, REFEREE_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 2),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 6 + REFEREE_FORKS, 5 + REFEREE_FORKS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execve, 2 + REFEREE_FORKS, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 1 + REFEREE_FORKS, 0),
#ifdef SYS_fork
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fork, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_vfork, 1, 0),
#endif
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program;
#endif
    referee_leaks_start();
    if (*hold == 0)
        return;
    for (; *hold >= '0' && *hold <= '9'; hold++)
        extra = extra * 10 + (unsigned long)(*hold - '0');
    referee_held_kib = extra >> 10;
    /* Measured while this is the only thread: the limit is low for a
       moment while it is halved, and a thread starting meanwhile (its
       stack, the sanitizer's own records of it) could not map. */
    if (syscall(SYS_prlimit64, 0, RLIMIT_AS, 0, &limit) != 0)
        referee_refuse("its address space cannot be read");
    mapped = referee_mapped(limit.rlim_max < (1UL << 47) ? limit.rlim_max : 1UL << 47);
    if (mapped == 0)
        referee_refuse("its address space cannot be measured");
    limit.rlim_cur = mapped + extra;
    limit.rlim_max = mapped + extra;
    if (syscall(SYS_prlimit64, 0, RLIMIT_AS, &limit, 0) != 0)
        referee_refuse("its address space cannot be limited");
    if (pthread_create(&watcher, 0, referee_watch, 0) != 0)
        referee_refuse("no thread can watch its memory");
#ifdef REFEREE_ARCH
    program.len = (unsigned short)(sizeof filter / sizeof filter[0]);
    program.filter = filter;
    if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0)
        referee_refuse("no seccomp filter can be installed");
#else
    referee_refuse("referee does not know this processor's system calls");
#endif
}

__attribute__((used, section(".preinit_array")))
static void (*const referee_hold_first)(void) = referee_hold;
"#;

/// The checked build's program, in the build's folder.
const CHECKED_NAME: &str = "checked";

/// Its name in the build's folder.
const OPTIONS_FILE: &str = ".referee-options.c";

/// What is made once per compiler and flags and kept for the process:
/// the options' object, a probe.
type PerFlags<T> = Mutex<Vec<((&'static str, Vec<String>), T)>>;

/// What `made` keeps for `compiler` and `flags`, made by `make` (given
/// how many are kept already, to name it apart) the first time it is
/// asked for and made. The lock is held while making: whoever asks
/// meanwhile waits for it. A failure is not kept: the next asker tries
/// again.
fn once_per<T: Clone, E>(
    made: &PerFlags<T>,
    compiler: &'static Compiler,
    flags: &[String],
    make: impl FnOnce(usize) -> Result<T, E>,
) -> Result<T, E> {
    let mut made = made.lock().unwrap_or_else(|e| e.into_inner());
    let key = (compiler.name, flags.to_vec());
    if let Some((_, kept)) = made.iter().find(|(k, _)| *k == key) {
        return Ok(kept.clone());
    }
    let kept = make(made.len())?;
    made.push((key, kept.clone()));
    Ok(kept)
}

/// The options' object for programs compiled by `compiler` with
/// `flags`, and whether the compiler knows `warnings` (the arguments a
/// checked build's own compile may add for the compiler's warnings: gcc
/// before 12 knows no `-Wuse-after-free`, and refuses to compile with
/// it). Compiled the first time, in a folder of this process's, and
/// linked into every checked build after (a class's programs share their
/// flags: one compile serves them all); the options' source, which is
/// ours and draws no warning, is what tells whether the compiler knows
/// them.
fn options_object(
    compiler: &'static Compiler,
    flags: &[String],
    warnings: &[&str],
) -> Result<(PathBuf, bool), CheckError> {
    static FOLDER: OnceLock<std::io::Result<tempfile::TempDir>> = OnceLock::new();
    static MADE: PerFlags<(PathBuf, bool)> = Mutex::new(Vec::new());
    let folder = FOLDER
        .get_or_init(|| super::sandbox().build_folder())
        .as_ref()
        .map_err(|e| CheckError::Folder(e.to_string()))?
        .path();
    let mut asked = flags.to_vec();
    asked.extend(warnings.iter().map(|w| w.to_string()));
    once_per(&MADE, compiler, &asked, |n| {
        // Named apart from a suite's own library objects, and from the
        // other flags' object.
        let object = folder.join(format!(".referee-options-{n}.o"));
        let kept = cache::cache().zip(options_key(compiler, &asked));
        if let Some(said) = kept.as_ref().and_then(|(c, key)| c.find(key, &object)) {
            return Ok((object, said == KNOWN));
        }
        let (compiled, known) = compile_options(compiler, folder, flags, &asked, warnings)?;
        std::fs::rename(&compiled, &object).map_err(|e| CheckError::Folder(e.to_string()))?;
        if let Some((c, key)) = kept {
            c.keep(&key, &object, if known { KNOWN } else { "" });
        }
        Ok((object, known))
    })
}

/// What a kept options' object says of the warnings asked of the
/// compiler: that it knows them.
const KNOWN: &str = "the compiler knows the warnings asked";

/// What the options' object of `compiler` with `asked` (the flags and
/// the warnings) is kept under between invocations.
fn options_key(compiler: &Compiler, asked: &[String]) -> Option<cache::Key> {
    let mut key = key_start(b"referee's options object, 1", compiler)?;
    for flag in asked {
        key.part(flag.as_bytes());
    }
    Some(key.key())
}

/// Compiles the options' source in `folder` with `asked` (`flags` and
/// `warnings`), or with `flags` alone where the compiler refuses the
/// warnings: the object, and whether it knew them.
fn compile_options(
    compiler: &'static Compiler,
    folder: &Path,
    flags: &[String],
    asked: &[String],
    warnings: &[&str],
) -> Result<(PathBuf, bool), CheckError> {
    let source = folder.join(OPTIONS_FILE);
    std::fs::write(&source, OPTIONS_SOURCE).map_err(|e| CheckError::Folder(e.to_string()))?;
    let support = Support {
        source,
        place: OPTIONS_FILE.into(),
        mode: super::start::SUPPORT_MODE,
        linked: true,
    };
    let failed = |e: super::BuildError| CheckError::Build {
        flags: sanitizer_flags(compiler).join(" "),
        why: e.to_string(),
    };
    let made = match compile_object(compiler, &support, folder, asked) {
        Ok(compiled) => (compiled, true),
        Err(_) if !warnings.is_empty() => (
            compile_object(compiler, &support, folder, flags).map_err(failed)?,
            false,
        ),
        Err(e) => return Err(failed(e)),
    };
    Ok(made)
}

/// A checked build, ready to run.
#[derive(Debug)]
pub struct Checked {
    /// The command that runs it.
    pub program: Program,
    /// The executable (referee's path), whose debug information places
    /// what its sanitizers report.
    pub binary: PathBuf,
    /// The program's files as the student wrote them (their staged
    /// copies: sources and headers).
    pub sources: Vec<PathBuf>,
    /// What the compiler said in its pass for warnings (its JSON), or
    /// why that pass could not be made.
    pub warnings: Result<String, CheckError>,
    /// Whether its runs can hold themselves, where nothing else holds
    /// them.
    pub hold: Hold,
}

/// How the probe of a checked build of `recipe`, with `flags` and the
/// options' object, is had: built once per compiler and flags.
fn probe_of(recipe: &Recipe, flags: Vec<String>, options: PathBuf) -> Probe {
    let compiler = recipe.compiler;
    let extension = recipe
        .source
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_else(|| "c".into());
    Arc::new(move || probe(compiler, &flags, &options, &extension))
}

/// The facts of a program of one line built by `compiler` with `flags`
/// and the options' object: built once, in that object's folder, and
/// kept for every checked build after.
fn probe(
    compiler: &'static Compiler,
    flags: &[String],
    options: &Path,
    extension: &str,
) -> Result<Facts, Unheld> {
    static MADE: PerFlags<Result<Facts, Unheld>> = Mutex::new(Vec::new());
    let made = once_per(&MADE, compiler, flags, |n| {
        let folder = options.parent().unwrap_or(Path::new("."));
        let name = format!(".referee-probe-{n}");
        let source = folder.join(format!("{name}.{extension}"));
        let objects = [options.to_path_buf()];
        // Kept whatever it came to: a probe that cannot be built says so
        // to every checked build after.
        Ok::<_, std::convert::Infallible>(
            std::fs::write(&source, "int main(void) { return 0; }\n")
                .map_err(|e| Unheld::Probe(e.to_string()))
                .and_then(|()| {
                    compile_with_retry(
                        compiler,
                        std::slice::from_ref(&source),
                        folder,
                        flags,
                        &[],
                        &name,
                        &objects,
                    )
                    .map_err(|e| Unheld::Probe(e.to_string()))
                })
                .and_then(|(program, _)| {
                    let binary = program.argv.first().map(|a| a.as_os_str());
                    super::hold::facts(Path::new(binary.unwrap_or_default()))
                }),
        )
    });
    made.unwrap_or_else(|never| match never {})
}

/// Why a program has no checked build: never a grade's concern (the
/// program is graded from its ordinary build all the same), said in
/// the report and by `doctor`.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CheckError {
    /// Only C and C++ programs have one.
    #[error("only C and C++ programs have a checked build")]
    NotCompiled,
    /// The compiler could not make it.
    #[error("the checked build (the program compiled with {flags}) could not be made: {why}")]
    Build {
        /// The flags it adds.
        flags: String,
        /// What went wrong.
        why: String,
    },
    /// The pass for warnings could not be made.
    #[error("the compiler's pass for warnings could not be made: {0}")]
    Warnings(String),
    /// Referee could not write into its folder for the sanitizers' options.
    #[error("cannot write the checked build's options into referee's build folder: {0}")]
    Folder(String),
}

/// Where a checked build's compiler warnings come from (the arguments
/// are [`crate::diagnose`]'s).
#[derive(Clone, Copy, Debug)]
pub enum Warnings<'a> {
    /// Its own compile, with these arguments added: no more compiling.
    FromTheBuild(&'a [&'a str]),
    /// One more pass with these (optimised: it finds more, and costs
    /// about as much as the build again).
    FromAPass(&'a [&'a str]),
}

/// Makes the checked build of `recipe` in `stage`, the ordinary build's
/// folder, its compiler warnings had as `warnings` says. Why not, in
/// words, when the sanitized program cannot be made.
pub fn build(recipe: &Recipe, stage: &Path, warnings: Warnings<'_>) -> Result<Checked, CheckError> {
    let mut flags = recipe.flags.clone();
    flags.extend(
        sanitizer_flags(recipe.compiler)
            .iter()
            .map(|f| f.to_string()),
    );
    flags.push(WRAPPED.to_string());
    let warnings = warnings_of(recipe.compiler, warnings);
    match build_with(
        recipe,
        stage,
        warnings,
        flags.clone(),
        linker::faster(recipe.compiler),
    ) {
        // A linker that was there when asked but fails here (not in the
        // sandbox's view, or broken) is not asked again: the default's
        // build is what counts.
        Err(CheckError::Build { .. }) if linker::faster(recipe.compiler).is_some() => {
            linker::refuse(recipe.compiler);
            build_with(recipe, stage, warnings, flags, None)
        }
        made => made,
    }
}

/// [`build`], linked by `linker` (the compiler's own when `None`).
fn build_with(
    recipe: &Recipe,
    stage: &Path,
    warnings: Warnings<'_>,
    mut flags: Vec<String>,
    linker: Option<&'static str>,
) -> Result<Checked, CheckError> {
    // The probe the hold compares with is linked the same way.
    flags.extend(linker.map(str::to_string));
    let in_build = match warnings {
        Warnings::FromTheBuild(args) => args,
        Warnings::FromAPass(_) => &[],
    };
    let (options, known) = options_object(recipe.compiler, &flags, in_build)?;
    let mut build_flags = flags.clone();
    if known {
        build_flags.extend(in_build.iter().map(|a| a.to_string()));
    }
    let kept = cache::cache().zip(key_of(recipe, &build_flags, warnings));
    let output = stage.join(CHECKED_NAME);
    let found = kept.as_ref().and_then(|(c, key)| c.find(key, &output));
    let (program, warnings) = match found {
        Some(said) => {
            crate::timings::kept_build();
            (Program::new(output), Ok(said))
        }
        None => {
            let made = make(recipe, stage, warnings, &build_flags, known, &options)?;
            if let (Some((c, key)), Some(program), Ok(said)) = (&kept, made.0.argv.first(), &made.1)
            {
                c.keep(key, Path::new(program), said);
            }
            made
        }
    };
    let binary = PathBuf::from(program.argv.first().cloned().unwrap_or_default());
    Ok(Checked {
        program,
        binary: binary.clone(),
        sources: recipe.files.clone(),
        warnings,
        hold: Hold::new(binary, probe_of(recipe, flags, options)),
    })
}

/// Why a program compiled by clang has no diagnoses from its compiler's
/// warnings.
const CLANG_WARNINGS: &str = "clang's warnings are not read as diagnoses (referee reads gcc's \
                              JSON, which clang does not write); its sanitizers' findings are";

/// Where the warnings of a checked build by `compiler` come from: for
/// clang, nothing is added to its build and no pass is made (the
/// arguments are gcc's: `-fdiagnostics-format=json` stops clang).
fn warnings_of<'a>(compiler: &Compiler, warnings: Warnings<'a>) -> Warnings<'a> {
    match compiler.family {
        Family::Gcc => warnings,
        Family::Clang => Warnings::FromTheBuild(&[]),
    }
}

/// Compiles the checked build of `recipe` with `build_flags` and the
/// options' object, and has its compiler warnings as `warnings` says.
fn make(
    recipe: &Recipe,
    stage: &Path,
    warnings: Warnings<'_>,
    build_flags: &[String],
    known: bool,
    options: &Path,
) -> Result<(Program, Result<String, CheckError>), CheckError> {
    let (program, said) = compile_with_retry(
        recipe.compiler,
        &recipe.files,
        stage,
        build_flags,
        &recipe.support,
        CHECKED_NAME,
        &[options.to_path_buf()],
    )
    .map_err(|e| CheckError::Build {
        flags: sanitizer_flags(recipe.compiler).join(" "),
        why: e.to_string().trim_end().to_string(),
    })?;
    let warnings = match warnings {
        Warnings::FromTheBuild(_) if recipe.compiler.family == Family::Clang => {
            Err(CheckError::Warnings(CLANG_WARNINGS.into()))
        }
        Warnings::FromTheBuild(_) if known => Ok(said),
        Warnings::FromTheBuild(_) => Err(CheckError::Warnings(
            "the compiler does not know the warnings asked of it (gcc 12 or later does)".into(),
        )),
        Warnings::FromAPass(args) => compiler_messages(
            recipe.compiler,
            &recipe.files,
            stage,
            &recipe.flags,
            &recipe.support,
            args,
        )
        .map_err(|e| CheckError::Warnings(e.to_string())),
    };
    Ok((program, warnings))
}

/// What a checked build of `recipe` with `flags` (and its warnings had
/// as `warnings` says) is kept under between invocations: everything
/// the compiler is given, and the compiler. Nothing where a file cannot
/// be read, or the compiler not found: such a build is not kept.
fn key_of(recipe: &Recipe, flags: &[String], warnings: Warnings<'_>) -> Option<cache::Key> {
    use std::os::unix::ffi::OsStrExt;
    let mut key = key_start(b"referee's checked build, 1", recipe.compiler)?;
    key.part(&(flags.len() as u64).to_le_bytes());
    for flag in flags {
        key.part(flag.as_bytes());
    }
    let (how, args) = match warnings {
        Warnings::FromTheBuild(args) => (&b"warnings from the build"[..], args),
        Warnings::FromAPass(args) => (&b"warnings from a pass"[..], args),
    };
    key.part(how).part(&(args.len() as u64).to_le_bytes());
    for arg in args {
        key.part(arg.as_bytes());
    }
    // Every file of the program, and which one starts it.
    key.part(recipe.source.file_name()?.as_bytes())
        .part(&(recipe.files.len() as u64).to_le_bytes());
    for file in &recipe.files {
        key.part(file.file_name()?.as_bytes())
            .part(&crate::untrusted::read(file, crate::untrusted::PROGRAM_LIMIT).ok()?);
    }
    key.part(&(recipe.support.len() as u64).to_le_bytes());
    for support in &recipe.support {
        key.part(support.place.as_os_str().as_bytes())
            .part(&support.mode.to_le_bytes())
            .part(&[u8::from(support.linked)])
            .part(&crate::untrusted::read(&support.source, super::SUPPORT_LIMIT).ok()?);
    }
    Some(key.key())
}

/// What every key of a thing kept starts with: what it is, referee's
/// version and options' source, and the compiler.
fn key_start(what: &[u8], compiler: &Compiler) -> Option<cache::Recipe> {
    let mut key = cache::Recipe::default();
    key.part(what)
        .part(env!("CARGO_PKG_VERSION").as_bytes())
        .part(OPTIONS_SOURCE.as_bytes())
        .part(compiler_identity(compiler)?.as_bytes());
    Some(key)
}

/// The compiler as a kept build knows it: the file its command is, with
/// its size and time, which a new version of the compiler changes.
fn compiler_identity(compiler: &Compiler) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let command = super::build::command_of(compiler).ok()?;
    let real = std::fs::canonicalize(command).ok()?;
    let meta = std::fs::metadata(&real).ok()?;
    Some(format!(
        "{} {} {} {}.{}",
        real.display(),
        meta.len(),
        meta.ino(),
        meta.mtime(),
        meta.mtime_nsec()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::languages::{self, Language};

    /// clang gets its own sanitizer flags and none of gcc's warnings'
    /// arguments (`-fdiagnostics-format=json` would stop it); gcc keeps
    /// its own.
    #[test]
    fn each_compiler_gets_only_the_arguments_it_knows() {
        let clang = languages::chosen(Language::C, "clang-19").unwrap();
        let gcc = languages::chosen(Language::C, "gcc").unwrap();
        assert!(sanitizer_flags(clang).contains(&"-static-libsan"));
        assert!(!sanitizer_flags(clang).contains(&"-static-libasan"));
        assert_eq!(sanitizer_flags(gcc), SANITIZER_FLAGS);
        let asked = ["-Wuse-after-free", "-fdiagnostics-format=json"];
        for warnings in [Warnings::FromAPass(&asked), Warnings::FromTheBuild(&asked)] {
            assert!(matches!(
                warnings_of(clang, warnings),
                Warnings::FromTheBuild([])
            ));
            assert!(matches!(
                warnings_of(gcc, warnings),
                Warnings::FromAPass(a) | Warnings::FromTheBuild(a) if a == asked
            ));
        }
    }
}
