"""What `dartship doctor` found: one finding a check, and the report that collects them (its own
module so that checks kept elsewhere, such as the caller's sound check, need not import the
doctor)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(enum.Enum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Finding:
    check: str
    level: Severity
    message: str
    fix: str = ""


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)

    def add(self, check: str, level: Severity, message: str, fix: str = "") -> None:
        self.findings.append(Finding(check, level, message, fix))

    @property
    def failed(self) -> bool:
        return any(f.level is Severity.FAIL for f in self.findings)
