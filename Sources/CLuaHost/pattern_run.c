#include "internal.h"
#include "pattern.h"

#include <string.h>

/* The machine that runs a compiled pattern. It keeps its place as (instruction, position) and
   walks forward; wherever the pattern leaves a choice (how many bytes a repetition takes, whether
   an optional byte is taken) it records the other way on a stack of at most SD_PATTERN_DEPTH
   entries, beside a record of each capture it opened or closed. When an instruction fails, the
   machine takes records off the stack: a capture's record undoes it, a choice's record resumes
   there the other way. An empty stack is no match at that position. The bound on the stack is
   the only bound on depth: nothing here recurses.

   Work is counted in steps (an instruction, a record taken back, a byte read or compared) and
   charged to the call in batches: every count is unsigned and grows with the work done. */

#define CHARGE_BATCH 4096

enum { RECORD_MAYBE, RECORD_MANY, RECORD_FEW, RECORD_OPENED, RECORD_CLOSED };

typedef struct {
    uint8_t kind, capture;
    uint32_t pc;       /* the instruction that made the record */
    const char *at;    /* MAYBE: where to go on without the byte; MANY: the end of what it holds; FEW: how far it reached */
    const char *least; /* MANY: the least end it may give back to */
} record;

static const char *fault_text[] = {
    [PAT_FAULT_ENDS_WITH_ESCAPE] = "malformed pattern (ends with '%%')",
    [PAT_FAULT_MISSING_BRACKET] = "malformed pattern (missing ']')",
    [PAT_FAULT_BALANCE_ARGUMENTS] = "malformed pattern (missing arguments to '%%b')",
    [PAT_FAULT_FRONTIER_BRACKET] = "missing '[' after '%%f' in pattern",
    [PAT_FAULT_CAPTURE_INDEX] = "invalid capture index %%%d",
    [PAT_FAULT_CAPTURE_CLOSE] = "invalid pattern capture",
    [PAT_FAULT_TOO_MANY_CAPTURES] = "too many captures",
};

void sd_match_settle(sd_match *match) {
    if (match->steps == 0) return;
    uint64_t steps = match->steps;
    match->steps = 0;
    sd_charge(match->L, steps > (uint64_t)INT64_MAX ? INT64_MAX : (long long)steps);
}

static void count(sd_match *match, uint64_t steps) {
    match->steps += steps;
    if (match->steps >= CHARGE_BATCH) sd_match_settle(match);
}

static int fail_with(sd_match *match, const sd_instruction *in) {
    sd_match_settle(match);
    return luaL_error(match->L, fault_text[in->arg], (int)in->b);
}

/* How many bytes from `s` on are in `set`. */
static size_t run_length(const sd_match *match, const uint8_t *set, const char *s) {
    const char *p = s;
    while (p < match->end && sd_set_has(set, (unsigned char)*p)) p++;
    return (size_t)(p - s);
}

/* %bxy from `s`: the end of the balanced text, or NULL. */
static const char *balanced(sd_match *match, const char *s, char open, char close) {
    if (s >= match->end || *s != open) return NULL;
    int depth = 1;
    for (const char *p = s + 1; p < match->end; p++) {
        if (*p == close) {
            if (--depth == 0) {
                count(match, (uint64_t)(p - s));
                return p + 1;
            }
        } else if (*p == open) {
            depth++;
        }
    }
    count(match, (uint64_t)(match->end - s));
    return NULL;
}

/* One attempt at `s`: the end of the match, or NULL. */
static const char *attempt(sd_match *match, const sd_program *program, const char *s) {
    const sd_instruction *code = sd_program_code(program);
    const char *literals = sd_program_literals(program);
    const char *end = match->end;
    record stack[SD_PATTERN_DEPTH];
    int depth = 0;
    uint32_t pc = 0;
    match->level = 0;
#define PUSH(k, c, where, low)                                                                      \
    do {                                                                                            \
        if (depth >= SD_PATTERN_DEPTH - 1) {                                                        \
            sd_match_settle(match);                                                                 \
            luaL_error(match->L, "pattern too complex");                                            \
        }                                                                                           \
        stack[depth++] = (record){(k), (c), pc, (where), (low)};                                    \
    } while (0)
    for (;;) {
        const sd_instruction *in = &code[pc];
        count(match, 1);
        switch (in->op) {
        case PAT_END: return s;
        case PAT_LITERAL:
            if ((size_t)(end - s) < in->b) goto fail;
            count(match, in->b);
            if (memcmp(s, literals + in->a, in->b) != 0) goto fail;
            s += in->b;
            pc++;
            continue;
        case PAT_ONE:
            if (s >= end || !sd_set_has(sd_program_set(program, in->a), (unsigned char)*s)) goto fail;
            s++;
            pc++;
            continue;
        case PAT_MAYBE:
            if (s < end && sd_set_has(sd_program_set(program, in->a), (unsigned char)*s)) {
                PUSH(RECORD_MAYBE, 0, s, NULL);
                s++;
            }
            pc++;
            continue;
        case PAT_MANY: {
            const uint8_t *set = sd_program_set(program, in->a);
            if (s >= end || !sd_set_has(set, (unsigned char)*s)) {
                if (in->arg) goto fail;
                pc++; /* none taken, and nothing to give back */
                continue;
            }
            const char *least = s + in->arg;
            size_t taken = 1 + run_length(match, set, s + 1);
            count(match, taken);
            PUSH(RECORD_MANY, 0, s + taken, least);
            s += taken;
            pc++;
            continue;
        }
        case PAT_FEW:
            if (s < end && sd_set_has(sd_program_set(program, in->a), (unsigned char)*s)) PUSH(RECORD_FEW, 0, s, NULL);
            pc++;
            continue;
        case PAT_OPEN:
        case PAT_POSITION:
            PUSH(RECORD_OPENED, in->arg, s, NULL);
            match->capture[in->arg].start = s;
            match->capture[in->arg].length = in->op == PAT_OPEN ? SD_CAPTURE_OPEN : SD_CAPTURE_POSITION;
            match->level = in->arg + 1;
            pc++;
            continue;
        case PAT_CLOSE:
            PUSH(RECORD_CLOSED, in->arg, s, NULL);
            match->capture[in->arg].length = s - match->capture[in->arg].start;
            pc++;
            continue;
        case PAT_BALANCED:
            s = balanced(match, s, (char)in->a, (char)in->b);
            if (s == NULL) goto fail;
            pc++;
            continue;
        case PAT_FRONTIER: {
            const uint8_t *set = sd_program_set(program, in->a);
            unsigned char before = s > match->subject ? (unsigned char)s[-1] : 0;
            unsigned char here = s < end ? (unsigned char)*s : 0;
            if (sd_set_has(set, before) || !sd_set_has(set, here)) goto fail;
            pc++;
            continue;
        }
        case PAT_SAME: {
            size_t length = (size_t)match->capture[in->arg].length;
            count(match, length);
            if ((size_t)(end - s) < length || memcmp(s, match->capture[in->arg].start, length) != 0) goto fail;
            s += length;
            pc++;
            continue;
        }
        case PAT_SUBJECT_END:
            if (s != end) goto fail;
            pc++;
            continue;
        case PAT_NEVER: goto fail;
        default: fail_with(match, in); return NULL;
        }
    fail:
        /* Back to the latest choice, undoing the captures recorded after it. */
        for (;;) {
            if (depth == 0) return NULL;
            record *r = &stack[depth - 1];
            count(match, 1);
            switch (r->kind) {
            case RECORD_MAYBE:
                s = r->at;
                pc = r->pc + 1;
                depth--;
                break;
            case RECORD_MANY:
                if (r->at == r->least) {
                    depth--;
                    continue;
                }
                s = --r->at;
                pc = r->pc + 1;
                break;
            case RECORD_FEW:
                if (r->at < end && sd_set_has(sd_program_set(program, code[r->pc].a), (unsigned char)*r->at)) {
                    s = ++r->at;
                    pc = r->pc + 1;
                    break;
                }
                depth--;
                continue;
            case RECORD_OPENED:
                match->level = r->capture;
                depth--;
                continue;
            default: /* RECORD_CLOSED */
                match->capture[r->capture].length = SD_CAPTURE_OPEN;
                depth--;
                continue;
            }
            break;
        }
    }
#undef PUSH
}

/* The next position from `s` where a match can begin, or NULL. */
static const char *next_start(sd_match *match, const sd_program *program, const char *s) {
    const char *end = match->end;
    if (program->start == PAT_START_BYTE) {
        if (s >= end) return NULL;
        const char *found = memchr(s, program->start_byte, (size_t)(end - s));
        count(match, (uint64_t)((found ? found : end) - s) / 8 + 1);
        return found;
    }
    if (program->start == PAT_START_SET) {
        const uint8_t *set = sd_program_set(program, program->start_set);
        const char *p = s;
        while (p < end && !sd_set_has(set, (unsigned char)*p)) p++;
        count(match, (uint64_t)(p - s) + 1);
        return p < end ? p : NULL;
    }
    return s;
}

const char *sd_pattern_search(sd_match *match, const sd_program *program, const char *from, int anchored,
                              const char *refused_end, const char **start) {
    const char *s = from;
    for (;;) {
        if (!anchored) {
            s = next_start(match, program, s);
            if (s == NULL) return NULL;
        }
        const char *e = attempt(match, program, s);
        if (e != NULL && e != refused_end) {
            *start = s;
            return e;
        }
        if (anchored || s >= match->end) return NULL;
        s++;
    }
}
