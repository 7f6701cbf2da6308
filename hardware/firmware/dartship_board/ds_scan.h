/* Dartship reference firmware: matrix scan logic in plain C (no Arduino calls), so the host's
 * test suite compiles it with gcc and checks it against the kiosk's Python debouncer.
 *
 * Per contact an integrating debounce (a counter 0..debounce, closed at the top, open again at
 * zero), edge detection (a dart is the moment a contact becomes closed), a lockout after each
 * dart, two or more contacts becoming closed in one scan reported as MULTI (never guessed), and
 * a contact held longer than stuck_ms reported once as HELD.
 */
#ifndef DS_SCAN_H
#define DS_SCAN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DS_MAX_ROWS 8
#define DS_MAX_COLS 16
#define DS_MAX_CONTACTS (DS_MAX_ROWS * DS_MAX_COLS)

enum ds_kind { DS_NONE = 0, DS_DART = 1, DS_MULTI = 2, DS_HELD = 3 };

typedef struct {
    uint8_t kind;  /* enum ds_kind */
    uint8_t row;   /* DART/HELD: the contact; MULTI: the first of them */
    uint8_t col;
    uint8_t count; /* MULTI: how many contacts became closed at once */
} ds_event;

typedef struct {
    uint8_t rows, cols, debounce;
    uint16_t lockout_ms, stuck_ms;
    uint8_t level[DS_MAX_CONTACTS];
    uint8_t closed[DS_MAX_CONTACTS];
    uint8_t held_told[DS_MAX_CONTACTS];
    uint32_t since[DS_MAX_CONTACTS];
    uint32_t lockout_until;
    uint8_t locked; /* lockout_until is meaningful */
} ds_matrix;

/* Returns 0, or -1 when the size is beyond DS_MAX_ROWS x DS_MAX_COLS or debounce is 0. */
int ds_init(ds_matrix *m, uint8_t rows, uint8_t cols, uint8_t debounce, uint16_t lockout_ms,
            uint16_t stuck_ms);

/* One scan. `reading` holds rows*cols bytes, row-major, non-zero = the contact reads closed.
 * `now_ms` is a free-running millisecond clock (wrap-around is fine). Writes at most `max_out`
 * events to `out` and returns how many. */
int ds_scan(ds_matrix *m, const uint8_t *reading, uint32_t now_ms, ds_event *out, int max_out);

/* The dartship-dialect line for an event, without the line ending: "RC 3 7" for a dart,
 * "# multi 2 first 1 1" and "# held 3 7" as comments. Returns the length, or -1. */
int ds_format(const ds_event *e, char *buf, int size);

#ifdef __cplusplus
}
#endif

#endif
