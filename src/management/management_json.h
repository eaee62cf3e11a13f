// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the management API and its server share: the JSON text of an answer (never failing on
// text that is not UTF-8) and the bound on a request's headers.

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace dromedary {

class Context;
class RouteControl;
struct ManagementOptions;
struct ManagementRequest;
struct ManagementResponse;

/// handleManagementRequest with route stops and suspensions run on `background` (the server's),
/// so that one waiting for in-flight exchanges answers 202 instead of holding the server.
ManagementResponse handleManagementRequest(Context& context, const ManagementOptions& options,
                                           const ManagementRequest& request,
                                           RouteControl* background);

/// The request line and headers of a management request; more gets 431.
constexpr size_t kManagementHeaderLimit = 8 * 1024;

/// `body` as JSON text. Bytes that are not UTF-8 (a path a client sent, a name from a file)
/// become U+FFFD rather than failing the answer.
inline std::string managementJsonText(const nlohmann::json& body) {
  return body.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

/// `{"error": message, "status": status}`, as every management error is answered.
inline std::string managementErrorBody(int status, std::string_view message) {
  return managementJsonText(nlohmann::json{{"error", message}, {"status", status}});
}

/// `body` as a JSON answer with `status`.
ManagementResponse managementJson(int status, const nlohmann::json& body);
/// An error answer: managementErrorBody as JSON with `status`.
ManagementResponse managementError(int status, std::string_view message);

}  // namespace dromedary
