// Dartship reference firmware for an Arduino-class board (Uno, Nano, Pro Micro, ...).
//
// Scans the dartboard's contact matrix (rows driven low one at a time, columns read with the
// internal pull-ups), and speaks the `dartship` dialect at 115200 baud:
//   HELLO dartship/1 <board-id> four-ring      on start (an Uno restarts when the port opens)
//   RC <row> <col>                              a dart; the kiosk's board map names the cell
//   MISS                                        the piezo/tilt miss sensor
//   BTN NEXT | BTN UNDO | BTN MISS              the buttons
//   # ...                                       debug (multi contacts, held contacts)
// The scan, debounce and lockout logic is ds_scan.c, tested on the host by tests/hardware.

#include "ds_scan.h"

static const char BOARD_ID[] = "ds-uno-1";
static const char PROFILE[] = "four-ring";

// Rows idle as inputs (high impedance) and are driven low only while scanned: two contacts
// closed in one column can then never short a high output against a low one.
static const uint8_t ROW_PINS[] = {2, 3, 4, 5, 6, 7, 8};
static const uint8_t COL_PINS[] = {9, 10, 11, 12, A0, A1, A2, A3, A4, A5};
static const uint8_t ROWS = sizeof(ROW_PINS);
static const uint8_t COLS = sizeof(COL_PINS);

static const uint8_t MISS_PIN = 13;  // piezo comparator or tilt switch, active low
static const uint8_t BUTTON_PINS[] = {A6, A7};  // NEXT, UNDO (A6/A7 are analog-only on a Nano)
static const char *const BUTTON_NAMES[] = {"NEXT", "UNDO"};

static const uint8_t DEBOUNCE_SCANS = 3;
static const uint16_t LOCKOUT_MS = 20;
static const uint16_t STUCK_MS = 500;
static const uint16_t BUTTON_MS = 50;
static const uint16_t MISS_GRACE_MS = 150;  // a felt dart with no contact this long is a MISS

static ds_matrix matrix;
static uint8_t reading[DS_MAX_CONTACTS];
static uint8_t button_state[sizeof(BUTTON_PINS)];
static uint32_t button_changed[sizeof(BUTTON_PINS)];
static uint8_t miss_state = 1;
static uint32_t last_dart = 0;
static uint32_t felt_at = 0;
static bool felt = false;

static bool pressed(uint8_t pin) {
  if (pin == A6 || pin == A7) return analogRead(pin) < 300;  // no digital input on these
  return digitalRead(pin) == LOW;
}

void setup() {
  Serial.begin(115200);
  for (uint8_t r = 0; r < ROWS; r++) pinMode(ROW_PINS[r], INPUT);
  for (uint8_t c = 0; c < COLS; c++) pinMode(COL_PINS[c], INPUT_PULLUP);
  pinMode(MISS_PIN, INPUT_PULLUP);
  ds_init(&matrix, ROWS, COLS, DEBOUNCE_SCANS, LOCKOUT_MS, STUCK_MS);
  Serial.print(F("HELLO dartship/1 "));
  Serial.print(BOARD_ID);
  Serial.print(' ');
  Serial.println(PROFILE);
}

static void scan_matrix(uint32_t now) {
  for (uint8_t r = 0; r < ROWS; r++) {
    pinMode(ROW_PINS[r], OUTPUT);
    digitalWrite(ROW_PINS[r], LOW);
    delayMicroseconds(5);  // let the column lines settle
    for (uint8_t c = 0; c < COLS; c++) reading[r * COLS + c] = digitalRead(COL_PINS[c]) == LOW;
    pinMode(ROW_PINS[r], INPUT);
  }
  ds_event events[4];
  int n = ds_scan(&matrix, reading, now, events, 4);
  char line[40];
  for (int i = 0; i < n; i++) {
    if (events[i].kind == DS_DART || events[i].kind == DS_MULTI) last_dart = now;
    if (ds_format(&events[i], line, sizeof(line)) > 0) Serial.println(line);
  }
}

static void scan_buttons(uint32_t now) {
  for (uint8_t b = 0; b < sizeof(BUTTON_PINS); b++) {
    uint8_t down = pressed(BUTTON_PINS[b]);
    if (down != button_state[b] && now - button_changed[b] >= BUTTON_MS) {
      button_state[b] = down;
      button_changed[b] = now;
      if (down) {
        Serial.print(F("BTN "));
        Serial.println(BUTTON_NAMES[b]);
      }
    }
  }
  uint8_t miss = digitalRead(MISS_PIN);
  if (miss == LOW && miss_state == HIGH && now - last_dart > MISS_GRACE_MS) {
    felt = true;  // judged once the grace window is over
    felt_at = now;
  }
  miss_state = miss;
  if (felt && now - felt_at >= MISS_GRACE_MS) {
    felt = false;
    if (now - last_dart > MISS_GRACE_MS * 2) Serial.println(F("MISS"));
  }
}

void loop() {
  static uint32_t last = 0;
  uint32_t now = millis();
  if (now != last) {  // one full scan per millisecond
    last = now;
    scan_matrix(now);
    scan_buttons(now);
  }
}
