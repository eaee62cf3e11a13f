// SPDX-License-Identifier: Apache-2.0
#pragma once

// The management API's tracing: the backlog tracer's events as JSON (GET /api/trace), and
// turning the tracers on or off (POST /api/trace/enable|disable, a control action).

#include <dromedary/management/management_server.h>

#include <string>
#include <string_view>

namespace dromedary {

class Context;

/// Answers `request` for `path` (/api/trace or below). `refusal` is why a control action may
/// not run (empty: it may).
ManagementResponse traceRequest(Context& context, const ManagementRequest& request,
                                std::string_view path, const std::string& refusal);

}  // namespace dromedary
