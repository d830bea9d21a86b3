#ifndef STACKDAY_PATTERN_H
#define STACKDAY_PATTERN_H

/* Lua patterns as small programs: pattern_compile.c turns a pattern's text into a program once,
   pattern_run.c runs it over a subject on an explicit stack of pending choices. The meaning of
   every pattern is Lua 5.4's (its manual, §6.4.1); the machine is this project's own. */

#include <stddef.h>
#include <stdint.h>

#include <lua5.4/lua.h>

/* The captures a pattern may hold (Lua's limit). */
#define SD_PATTERN_CAPTURES 32
/* Choices and captures a match may hold pending at once; reaching it is "pattern too complex".
   Lua's matcher allows the same: one pending choice or capture per nested call, 200 calls deep. */
#define SD_PATTERN_DEPTH 200

/* What one instruction does. Every instruction that reads the subject reads it at the current
   position and moves past what it read; PAT_END is the only way a match succeeds. */
enum {
    PAT_END = 0,     /* the whole pattern matched */
    PAT_LITERAL,     /* `b` bytes of the literal pool from `a` */
    PAT_ONE,         /* one byte of set `a` */
    PAT_MANY,        /* `arg` (0 or 1) or more bytes of set `a`, as many as there are, giving back one at a time */
    PAT_FEW,         /* none or more bytes of set `a`, as few as the rest of the pattern allows */
    PAT_MAYBE,       /* one byte of set `a` if it is there, else none */
    PAT_OPEN,        /* capture `arg` starts here */
    PAT_POSITION,    /* capture `arg` is this position */
    PAT_CLOSE,       /* capture `arg` ends here */
    PAT_BALANCED,    /* %b: byte `a`, then text up to its balancing byte `b` */
    PAT_FRONTIER,    /* %f: the byte before is not in set `a`, the byte here is (a subject's ends read as 0) */
    PAT_SAME,        /* %1-%9: the text capture `arg` holds, again */
    PAT_SUBJECT_END, /* '$' ending the pattern */
    PAT_NEVER,       /* nothing matches here (a back-reference to a position) */
    PAT_FAULT        /* the pattern is malformed here: fault `arg`, with number `b` */
};

/* The faults a pattern can have, each raised only when a match reaches it, as Lua does. */
enum {
    PAT_FAULT_ENDS_WITH_ESCAPE = 0,
    PAT_FAULT_MISSING_BRACKET,
    PAT_FAULT_BALANCE_ARGUMENTS,
    PAT_FAULT_FRONTIER_BRACKET,
    PAT_FAULT_CAPTURE_INDEX,
    PAT_FAULT_CAPTURE_CLOSE,
    PAT_FAULT_TOO_MANY_CAPTURES
};

typedef struct {
    uint8_t op;
    uint8_t arg;
    uint16_t unused;
    uint32_t a, b;
} sd_instruction;

/* How a match can begin, so a search skips the positions where it cannot. */
enum { PAT_START_ANYWHERE = 0, PAT_START_BYTE, PAT_START_SET };

/* A compiled pattern: this header, then `count` instructions, `sets` 32-byte sets, and the
   literal pool. One block, so a program is one Lua userdata. */
typedef struct {
    uint32_t count, sets, literal_bytes;
    uint32_t start_set;      /* PAT_START_SET: the set every match begins with */
    uint8_t start;           /* PAT_START_* */
    uint8_t start_byte;      /* PAT_START_BYTE: the byte every match begins with */
    uint8_t captures;        /* captures opened by the pattern's end */
    uint8_t anchored;        /* the text began with '^', read as an anchor: a match starts where the search does */
} sd_program;

static inline const sd_instruction *sd_program_code(const sd_program *program) {
    return (const sd_instruction *)(program + 1);
}

static inline const uint8_t *sd_program_set(const sd_program *program, uint32_t set) {
    return (const uint8_t *)(sd_program_code(program) + program->count) + (size_t)set * 32;
}

static inline const char *sd_program_literals(const sd_program *program) {
    return (const char *)sd_program_set(program, program->sets);
}

static inline int sd_set_has(const uint8_t *set, unsigned char byte) { return (set[byte >> 3] >> (byte & 7)) & 1; }

/* pattern_compile.c: compiles `pattern` (without a leading anchor the caller took off) into a new
   userdata it pushes, charging the work to the call. */
const sd_program *sd_pattern_compile(lua_State *L, const char *pattern, size_t length);

/* A capture's length when it is still open, or when it is a position. */
#define SD_CAPTURE_OPEN ((ptrdiff_t)-1)
#define SD_CAPTURE_POSITION ((ptrdiff_t)-2)

/* One run of a program over one subject: where it is, what it found, and the work it did. */
typedef struct {
    lua_State *L;
    const char *subject, *end;
    uint64_t steps;  /* work not charged yet */
    int level;       /* captures opened */
    struct {
        const char *start;
        ptrdiff_t length; /* or SD_CAPTURE_OPEN, SD_CAPTURE_POSITION */
    } capture[SD_PATTERN_CAPTURES];
} sd_match;

/* pattern_run.c: the first match starting at or after `from` (at `from` only when `anchored`)
   whose end is not `refused_end` (NULL for any end): returns its end and sets `*start`, or NULL.
   Raises the pattern's faults and "pattern too complex" as Lua does; charges as it goes. */
const char *sd_pattern_search(sd_match *match, const sd_program *program, const char *from, int anchored,
                              const char *refused_end, const char **start);

/* Charges the work the run has not charged yet. */
void sd_match_settle(sd_match *match);

/* plain_search.c: the first occurrence of `needle` in `haystack`, in time linear in both,
   charged by the bytes it compares; NULL when there is none. */
const char *sd_plain_search(lua_State *L, const char *haystack, size_t length, const char *needle, size_t needle_length);

#endif
