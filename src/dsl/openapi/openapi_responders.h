// SPDX-License-Identifier: Apache-2.0
#pragma once

// The steps of contract-first REST routes that are not a send to direct:operationId, as
// processors made when the routes are loaded (everything they match against is computed then):
//
// - the mock answer of an operation without a route (missingOperation: mock), as Camel's
//   DefaultRestOpenapiProcessorStrategy: a mock file whose path ends with the request's path,
//   else the input echoed for DELETE/PUT/POST/PATCH, else the 200 response's example in the
//   media type the request's Content-Type or Accept asks for, else 204 with no body;
// - clientRequestValidation's checks (Camel's DefaultRestClientRequestValidator): required
//   query parameters, headers and body, enum values and a JSON body that parses, answered
//   400 with Camel's texts;
// - clientResponseValidation's (DefaultRestClientResponseValidator): the reply's Content-Type
//   one of its response code's media types, and a JSON reply that parses, else 500;
// - the document itself, served at apiContextPath.

#include <dromedary/spi/processor.h>

#include <memory>
#include <string>
#include <vector>

#include "dsl/openapi/openapi_document.h"

namespace dromedary {
class Context;
}

namespace dromedary::dsl {

/// A mock file: where it was found (without its extension), its extension and its text.
struct MockFile {
  std::string location;   ///< "camel-mock/pet/123"
  std::string extension;  ///< "json"
  std::string text;
};

/// The files matching Camel's mockIncludePattern ("classpath:camel-mock/**,file:mocks/*.json":
/// Ant patterns after file: or classpath:), read now, sorted by location. Folders that do not
/// exist are skipped, as Camel's. `classpath:` is the route files' folders and the working
/// folder (engine/resources.h).
Result<std::vector<MockFile>> readMockFiles(Context& context, std::string_view patterns);

/// The exchange property the request check sets (true) when it answered the request itself.
inline constexpr std::string_view kRequestRejectedProperty = "CamelRestOpenApiRejected";

std::shared_ptr<Processor> makeMockResponder(std::string basePath, const OpenApiOperation& op,
                                             std::shared_ptr<const std::vector<MockFile>> files);
std::shared_ptr<Processor> makeRequestCheck(const OpenApiOperation& op);
std::shared_ptr<Processor> makeResponseCheck(const OpenApiOperation& op);
/// Answers with `text` as `contentType` (the document at apiContextPath).
std::shared_ptr<Processor> makeDocumentResponder(std::string text, std::string contentType);

}  // namespace dromedary::dsl
