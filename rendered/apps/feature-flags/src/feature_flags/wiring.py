"""Factories of the feature-flag service's hand-written services, which the generated
``bootstrap`` calls in the order ``specs/feature-flags.yaml`` lists its ``components``."""

import os
import socket
from typing import Any

from feature_flags.application.evaluation import Evaluations
from feature_flags.application.ports.inbound import UsageReportUseCases
from feature_flags.application.usage import OfrepUsage


def evaluations(queries: dict[str, Any]) -> Evaluations:
    """Evaluation of a tenant's flags (OFREP and the Unleash client API) over the flag
    and segment read models."""
    return Evaluations(queries["Flags"], queries["Segments"])


def ofrep_usage(usage_report: UsageReportUseCases) -> OfrepUsage:
    """The OFREP evaluations counted in memory, written as usage reports of this
    instance."""
    return OfrepUsage(usage_report, f"{socket.gethostname()}-{os.getpid()}")
