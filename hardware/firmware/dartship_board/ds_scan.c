#include "ds_scan.h"

#include <stdio.h>
#include <string.h>

/* true when a is before b on a wrapping millisecond clock */
static int before(uint32_t a, uint32_t b) { return (int32_t)(a - b) < 0; }

int ds_init(ds_matrix *m, uint8_t rows, uint8_t cols, uint8_t debounce, uint16_t lockout_ms,
            uint16_t stuck_ms) {
    if (rows == 0 || cols == 0 || rows > DS_MAX_ROWS || cols > DS_MAX_COLS || debounce == 0)
        return -1;
    memset(m, 0, sizeof(*m));
    m->rows = rows;
    m->cols = cols;
    m->debounce = debounce;
    m->lockout_ms = lockout_ms;
    m->stuck_ms = stuck_ms;
    return 0;
}

int ds_scan(ds_matrix *m, const uint8_t *reading, uint32_t now_ms, ds_event *out, int max_out) {
    int n = 0;
    int rising = 0;
    int first = -1;
    int total = m->rows * m->cols;
    for (int i = 0; i < total; i++) {
        int is_rising = 0;
        if (reading[i]) {
            if (m->level[i] < m->debounce) m->level[i]++;
            if (m->level[i] >= m->debounce && !m->closed[i]) {
                m->closed[i] = 1;
                m->since[i] = now_ms;
                m->held_told[i] = 0;
                is_rising = 1;
                if (rising++ == 0) first = i;
            }
            if (m->closed[i] && !m->held_told[i] && !is_rising &&
                (uint32_t)(now_ms - m->since[i]) >= m->stuck_ms) {
                m->held_told[i] = 1;
                if (n < max_out) {
                    out[n].kind = DS_HELD;
                    out[n].row = (uint8_t)(i / m->cols);
                    out[n].col = (uint8_t)(i % m->cols);
                    out[n].count = 1;
                    n++;
                }
            }
        } else if (m->level[i] > 0) {
            m->level[i]--;
            if (m->level[i] == 0) {
                m->closed[i] = 0;
                m->held_told[i] = 0;
            }
        }
    }
    if (rising == 0) return n;
    if (m->locked && before(now_ms, m->lockout_until)) return n; /* swallowed by the lockout */
    m->lockout_until = now_ms + m->lockout_ms;
    m->locked = 1;
    if (n < max_out) {
        out[n].kind = rising > 1 ? DS_MULTI : DS_DART;
        out[n].row = (uint8_t)(first / m->cols);
        out[n].col = (uint8_t)(first % m->cols);
        out[n].count = (uint8_t)rising;
        n++;
    }
    return n;
}

int ds_format(const ds_event *e, char *buf, int size) {
    int len;
    switch (e->kind) {
    case DS_DART:
        len = snprintf(buf, (size_t)size, "RC %u %u", e->row, e->col);
        break;
    case DS_MULTI:
        len = snprintf(buf, (size_t)size, "# multi %u first %u %u", e->count, e->row, e->col);
        break;
    case DS_HELD:
        len = snprintf(buf, (size_t)size, "# held %u %u", e->row, e->col);
        break;
    default:
        return -1;
    }
    return (len < 0 || len >= size) ? -1 : len;
}
