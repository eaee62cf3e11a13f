// SPDX-License-Identifier: Apache-2.0
#pragma once

// An OpenAPI 3.0/3.1 document (JSON or YAML) read for Camel's contract-first REST
// (`rest: openApi: {specification: petstore.json}`): its operations, each with what serving it
// needs (method, path, operationId, the checks of clientRequestValidation, the content types
// and the examples of its 200 response). Only what the routes use is kept; schemas are not
// read. References are followed inside the document ("#/components/..."); a reference to
// another file is an error naming it.

#include <dromedary/core/result.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dromedary::dsl {

struct OpenApiOperation {
  std::string method;       ///< upper case: GET, POST ...
  std::string path;         ///< as written: /pet/{petId}
  std::string operationId;  ///< as written, or Camel's generated GENOPID_GET.pet._petId_
  std::vector<std::string> requiredQuery;    ///< required query parameters
  std::vector<std::string> requiredHeaders;  ///< required header parameters
  /// Query and header parameters with an enum: name and allowed values.
  std::vector<std::pair<std::string, std::vector<std::string>>> allowedValues;
  bool requiredBody = false;
  std::string consumes;  ///< the request body's media types, sorted, comma-separated
  std::string produces;  ///< every response's media types, sorted, comma-separated
  /// Per response code ("200", "default" ...), its media types comma-separated.
  std::vector<std::pair<std::string, std::string>> responseTypes;
  /// The 200 response's first example per media type, as text (JSON for structured values).
  std::vector<std::pair<std::string, std::string>> examples;
};

struct OpenApiDocument {
  std::string basePath;  ///< the path of the (last) server URL, variables at their defaults
  std::vector<OpenApiOperation> operations;  ///< in document order
};

/// Reads `text` (the document `name`, for errors: "petstore.json:12:5: ..."). Fails on a
/// document that is not OpenAPI 3 (Swagger 2 included), has no paths, or refers outside
/// itself.
Result<OpenApiDocument> readOpenApiDocument(std::string_view text, std::string_view name);

}  // namespace dromedary::dsl
