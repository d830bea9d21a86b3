#include "internal.h"
#include "pattern.h"

#include <ctype.h>
#include <pthread.h>
#include <string.h>

/* From a pattern's text to a program. The text is read once, left to right, item by item; single
   bytes that stand alone join runs of literal text, and every class (%a, [a-z%d], '.') becomes a
   256-bit set, so that testing a byte against any class is one lookup however the class was
   written. A malformed item becomes a PAT_FAULT instruction where it stands: Lua reports such a
   pattern only once a match reaches the item, so `("b"):find("a[")` finds nothing and raises
   nothing, and the program does the same. Nothing after a fault can be reached, so the program
   ends there.

   Two passes over the text: the first counts instructions, sets and literal bytes, the second
   writes them into a block of exactly that size. */

typedef struct {
    const unsigned char *text;
    size_t length;
    sd_program *program; /* NULL in the counting pass */
    sd_instruction *code;
    uint8_t *sets;
    char *literals;
    uint32_t count, set_count, literal_bytes;
    /* What each capture is at the current point of the pattern: the same on every path through
       it, since a pattern has no alternatives. */
    uint8_t level;
    uint8_t state[SD_PATTERN_CAPTURES];
    int literal_open; /* the last instruction is a literal run that may grow */
} builder;

enum { CAPTURE_STATE_OPEN, CAPTURE_STATE_CLOSED, CAPTURE_STATE_POSITION };

/* The byte at `i`, or 0 past the end: Lua reads a pattern's terminating zero the same way. */
static unsigned char byte_at(const builder *b, size_t i) { return i < b->length ? b->text[i] : 0; }

static sd_instruction *emit(builder *b, uint8_t op, uint8_t arg, uint32_t a, uint32_t bb) {
    b->literal_open = 0;
    uint32_t at = b->count++;
    if (b->program == NULL) return NULL;
    sd_instruction *in = &b->code[at];
    in->op = op;
    in->arg = arg;
    in->unused = 0;
    in->a = a;
    in->b = bb;
    return in;
}

static void emit_fault(builder *b, uint8_t fault, uint32_t number) { emit(b, PAT_FAULT, fault, 0, number); }

static void append_literal(builder *b, unsigned char c) {
    if (!b->literal_open) {
        emit(b, PAT_LITERAL, 0, b->literal_bytes, 0);
        b->literal_open = 1;
    }
    if (b->program) {
        b->literals[b->literal_bytes] = (char)c;
        b->code[b->count - 1].b++;
    }
    b->literal_bytes++;
}

/* ---- classes ---- */

/* The escapes %a, %c, %d, %g, %l, %p, %s, %u, %w, %x and %z as sets, read from the C library's
   character tables once per process (Lua reads the same tables). */
static uint8_t class_sets[11][32];
static const char class_letters[] = "acdglpsuwxz";
static pthread_once_t classes_once = PTHREAD_ONCE_INIT;

static int class_member(char letter, int c) {
    switch (letter) {
    case 'a': return isalpha(c);
    case 'c': return iscntrl(c);
    case 'd': return isdigit(c);
    case 'g': return isgraph(c);
    case 'l': return islower(c);
    case 'p': return ispunct(c);
    case 's': return isspace(c);
    case 'u': return isupper(c);
    case 'w': return isalnum(c);
    case 'x': return isxdigit(c);
    default: return c == 0; /* 'z' */
    }
}

static void fill_class_sets(void) {
    for (int k = 0; k < 11; k++)
        for (int c = 0; c < 256; c++)
            if (class_member(class_letters[k], c)) class_sets[k][c >> 3] |= (uint8_t)(1u << (c & 7));
}

static void set_add(uint8_t *set, unsigned char c) { set[c >> 3] |= (uint8_t)(1u << (c & 7)); }

/* Adds what `%letter` stands for: a class (its complement for the capital), else the byte itself. */
static void set_add_escape(uint8_t *set, unsigned char letter) {
    const char *k = letter ? strchr(class_letters, tolower(letter)) : NULL;
    if (k == NULL) {
        set_add(set, letter);
        return;
    }
    pthread_once(&classes_once, fill_class_sets);
    const uint8_t *members = class_sets[k - class_letters];
    int complement = isupper(letter) != 0;
    for (int i = 0; i < 32; i++) set[i] |= complement ? (uint8_t)~members[i] : members[i];
}

/* Where the item at `i` ends (one past it), or 0 when it is malformed (the fault is emitted). */
static size_t item_end(builder *b, size_t i) {
    unsigned char c = b->text[i++];
    if (c == '%') {
        if (i >= b->length) {
            emit_fault(b, PAT_FAULT_ENDS_WITH_ESCAPE, 0);
            return 0;
        }
        return i + 1;
    }
    if (c != '[') return i;
    if (byte_at(b, i) == '^') i++;
    /* The first byte of the set is a member even when it is ']'; an escaped byte never closes it. */
    do {
        if (i >= b->length) {
            emit_fault(b, PAT_FAULT_MISSING_BRACKET, 0);
            return 0;
        }
        if (b->text[i++] == '%' && i < b->length) i++;
    } while (byte_at(b, i) != ']');
    return i + 1;
}

/* The set of the item [i, end): '.', an escape, a bracket class or a single byte. Returns its number. */
static uint32_t add_set(builder *b, size_t i, size_t end) {
    uint32_t number = b->set_count++;
    if (b->program == NULL) return number;
    uint8_t *set = b->sets + (size_t)number * 32;
    memset(set, 0, 32);
    unsigned char c = b->text[i];
    if (c == '.') {
        memset(set, 0xff, 32);
    } else if (c == '%') {
        set_add_escape(set, b->text[i + 1]);
    } else if (c == '[') {
        size_t close = end - 1;
        size_t j = i + 1;
        int negated = 0;
        if (b->text[j] == '^') {
            negated = 1;
            j++;
        }
        /* Members, left to right: %x, a-z (when a byte follows the '-' before the closing ']'), or a byte. */
        while (j < close) {
            unsigned char m = b->text[j];
            if (m == '%') {
                set_add_escape(set, b->text[j + 1]);
                j += 2;
            } else if (j + 2 < close && b->text[j + 1] == '-') {
                for (unsigned lo = m, hi = b->text[j + 2]; lo <= hi; lo++) set_add(set, (unsigned char)lo);
                j += 3;
            } else {
                set_add(set, m);
                j++;
            }
        }
        if (negated)
            for (int k = 0; k < 32; k++) set[k] = (uint8_t)~set[k];
    } else {
        set_add(set, c);
    }
    return number;
}

/* One item that matches a single byte, with the quantifier after it if there is one.
   Returns where the next item starts, or 0 after a fault. */
static size_t single(builder *b, size_t i) {
    size_t end = item_end(b, i);
    if (end == 0) return 0;
    unsigned char quantifier = byte_at(b, end);
    switch (quantifier) {
    case '?': emit(b, PAT_MAYBE, 0, add_set(b, i, end), 0); return end + 1;
    case '*': emit(b, PAT_MANY, 0, add_set(b, i, end), 0); return end + 1;
    case '+': emit(b, PAT_MANY, 1, add_set(b, i, end), 0); return end + 1;
    case '-': emit(b, PAT_FEW, 0, add_set(b, i, end), 0); return end + 1;
    default: break;
    }
    if (end == i + 1 && b->text[i] != '.' && b->text[i] != '[') {
        append_literal(b, b->text[i]);
    } else {
        emit(b, PAT_ONE, 0, add_set(b, i, end), 0);
    }
    return end;
}

static size_t open_capture(builder *b, size_t i, int position) {
    if (b->level >= SD_PATTERN_CAPTURES) {
        emit_fault(b, PAT_FAULT_TOO_MANY_CAPTURES, 0);
        return 0;
    }
    emit(b, position ? PAT_POSITION : PAT_OPEN, b->level, 0, 0);
    b->state[b->level++] = position ? CAPTURE_STATE_POSITION : CAPTURE_STATE_OPEN;
    return i + (position ? 2 : 1);
}

static size_t close_capture(builder *b, size_t i) {
    int open = b->level - 1;
    while (open >= 0 && b->state[open] != CAPTURE_STATE_OPEN) open--;
    if (open < 0) {
        emit_fault(b, PAT_FAULT_CAPTURE_CLOSE, 0);
        return 0;
    }
    emit(b, PAT_CLOSE, (uint8_t)open, 0, 0);
    b->state[open] = CAPTURE_STATE_CLOSED;
    return i + 1;
}

/* %0-%9: only a closed capture can be matched again; a position never matches as text. */
static size_t back_reference(builder *b, size_t i, unsigned char digit) {
    int index = digit - '1';
    if (index < 0 || index >= b->level || b->state[index] == CAPTURE_STATE_OPEN) {
        emit_fault(b, PAT_FAULT_CAPTURE_INDEX, (uint32_t)(digit - '0'));
        return 0;
    }
    if (b->state[index] == CAPTURE_STATE_POSITION) emit(b, PAT_NEVER, 0, 0, 0);
    else emit(b, PAT_SAME, (uint8_t)index, 0, 0);
    return i + 2;
}

static size_t escape(builder *b, size_t i) {
    unsigned char what = byte_at(b, i + 1);
    if (what == 'b') {
        if (i + 2 + 1 >= b->length) {
            emit_fault(b, PAT_FAULT_BALANCE_ARGUMENTS, 0);
            return 0;
        }
        emit(b, PAT_BALANCED, 0, b->text[i + 2], b->text[i + 3]);
        return i + 4;
    }
    if (what == 'f') {
        size_t open = i + 2;
        if (byte_at(b, open) != '[') {
            emit_fault(b, PAT_FAULT_FRONTIER_BRACKET, 0);
            return 0;
        }
        size_t end = item_end(b, open);
        if (end == 0) return 0;
        emit(b, PAT_FRONTIER, 0, add_set(b, open, end), 0);
        return end;
    }
    if (what >= '0' && what <= '9') return back_reference(b, i, what);
    return single(b, i);
}

/* One pass over the text, ending with PAT_END or with the first fault. */
static void build(builder *b) {
    size_t i = 0;
    for (;;) {
        if (i >= b->length) {
            emit(b, PAT_END, 0, 0, 0);
            return;
        }
        unsigned char c = b->text[i];
        size_t next;
        if (c == '(') {
            next = open_capture(b, i, byte_at(b, i + 1) == ')');
        } else if (c == ')') {
            next = close_capture(b, i);
        } else if (c == '$' && i + 1 == b->length) {
            emit(b, PAT_SUBJECT_END, 0, 0, 0);
            next = i + 1;
        } else if (c == '%') {
            next = escape(b, i);
        } else {
            next = single(b, i);
        }
        if (next == 0) return; /* a fault: the program ends with it */
        i = next;
    }
}

/* Where a match can begin: the first instruction that reads the subject, past the captures before it. */
static void find_start(sd_program *program) {
    const sd_instruction *code = sd_program_code(program);
    program->start = PAT_START_ANYWHERE;
    for (uint32_t pc = 0; pc < program->count; pc++) {
        const sd_instruction *in = &code[pc];
        switch (in->op) {
        case PAT_OPEN:
        case PAT_POSITION:
        case PAT_CLOSE: continue;
        case PAT_LITERAL:
            program->start = PAT_START_BYTE;
            program->start_byte = (uint8_t)sd_program_literals(program)[in->a];
            return;
        case PAT_BALANCED:
            program->start = PAT_START_BYTE;
            program->start_byte = (uint8_t)in->a;
            return;
        case PAT_ONE:
            program->start = PAT_START_SET;
            program->start_set = in->a;
            return;
        case PAT_MANY:
            if (in->arg == 1) {
                program->start = PAT_START_SET;
                program->start_set = in->a;
            }
            return;
        default: return;
        }
    }
}

const sd_program *sd_pattern_compile(lua_State *L, const char *pattern, size_t length) {
    builder b;
    memset(&b, 0, sizeof b);
    b.text = (const unsigned char *)pattern;
    b.length = length;
    build(&b);
    /* Reading the text twice, and writing the program, is work the call does. */
    sd_charge(L, (long long)length + b.count + (long long)b.set_count * 8 + 1);
    size_t size = sizeof(sd_program) + (size_t)b.count * sizeof(sd_instruction) + (size_t)b.set_count * 32 + b.literal_bytes;
    sd_program *program = (sd_program *)lua_newuserdatauv(L, size, 0);
    memset(program, 0, sizeof *program);
    program->count = b.count;
    program->sets = b.set_count;
    program->literal_bytes = b.literal_bytes;
    builder w;
    memset(&w, 0, sizeof w);
    w.text = b.text;
    w.length = b.length;
    w.program = program;
    w.code = (sd_instruction *)sd_program_code(program);
    w.sets = (uint8_t *)sd_program_set(program, 0);
    w.literals = (char *)sd_program_literals(program);
    build(&w);
    program->captures = w.level;
    find_start(program);
    return program;
}
