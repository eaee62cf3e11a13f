// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/result.h>

#include <ostream>

#include "core/text.h"

namespace dromedary {

const std::string SourceFile::empty_;

SourceFile::SourceFile(std::string_view name) {
  if (!name.empty()) name_ = &internText(name);
}

std::ostream& operator<<(std::ostream& out, const SourceFile& file) { return out << file.str(); }

std::string_view errorCodeName(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::Ok: return "Ok";
    case ErrorCode::InvalidUri: return "InvalidUri";
    case ErrorCode::UnknownComponent: return "UnknownComponent";
    case ErrorCode::UnknownOption: return "UnknownOption";
    case ErrorCode::InvalidOption: return "InvalidOption";
    case ErrorCode::UnknownProperty: return "UnknownProperty";
    case ErrorCode::InvalidExpression: return "InvalidExpression";
    case ErrorCode::EvaluationFailed: return "EvaluationFailed";
    case ErrorCode::InvalidRoute: return "InvalidRoute";
    case ErrorCode::DuplicateRoute: return "DuplicateRoute";
    case ErrorCode::DuplicateConsumer: return "DuplicateConsumer";
    case ErrorCode::NoConsumers: return "NoConsumers";
    case ErrorCode::TypeConversion: return "TypeConversion";
    case ErrorCode::Timeout: return "Timeout";
    case ErrorCode::ProcessorFailed: return "ProcessorFailed";
    case ErrorCode::RouteNotStarted: return "RouteNotStarted";
    case ErrorCode::NotFound: return "NotFound";
    case ErrorCode::Io: return "Io";
    case ErrorCode::LimitExceeded: return "LimitExceeded";
    case ErrorCode::Internal: return "Internal";
  }
  return "Unknown";
}

std::string Error::toString() const {
  if (where.file.empty() && where.line == 0) return message;
  std::string out = where.file.str();
  if (where.line > 0) {
    out += ':' + std::to_string(where.line);
    if (where.column > 0) out += ':' + std::to_string(where.column);
  }
  out += ": ";
  out += message;
  return out;
}

}  // namespace dromedary
