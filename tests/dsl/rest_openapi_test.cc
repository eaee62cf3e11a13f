// SPDX-License-Identifier: Apache-2.0
// Camel's contract-first REST (`rest: openApi: {specification: ...}`) over real sockets: each
// operation routed to direct:operationId, missingOperation fail/ignore/mock, mock answers from
// files and the document's examples, clientRequestValidation/clientResponseValidation with
// Camel's answers, the document served at apiContextPath, and each error where it is.
#include <dromedary/http/platform_http.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/http_client.h"
#include "support/route_file_fixture.h"

namespace dromedary::testing {
namespace {

namespace fs = std::filesystem;

// A pet store of four operations: one without an operationId, one with a required query
// parameter, a required header and an enum, one with a required body; examples in JSON and XML.
constexpr const char* kPetStore = R"~({
  "openapi": "3.0.3",
  "info": {"title": "pets", "version": "1"},
  "servers": [{"url": "{scheme}://localhost/{base}",
               "variables": {"scheme": {"default": "http"}, "base": {"default": "/v1"}}}],
  "paths": {
    "/pets/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "get": {
        "operationId": "getPet",
        "responses": {
          "200": {"content": {
            "application/json": {"examples": {"cat": {"value": {"name": "Tom", "age": 3}}}},
            "application/xml": {"example": "<pet>Tom</pet>"}}},
          "404": {"description": "no such pet"}}
      },
      "delete": {"responses": {"204": {"description": "gone"}}}
    },
    "/pets": {
      "get": {
        "operationId": "findPets",
        "parameters": [
          {"name": "status", "in": "query", "required": true,
           "schema": {"type": "string", "enum": ["available", "sold"]}},
          {"name": "X-Tenant", "in": "header", "required": true, "schema": {"type": "string"}}],
        "responses": {"200": {"content": {"application/json": {}}}}
      },
      "post": {
        "operationId": "addPet",
        "requestBody": {"required": true, "content": {"application/json": {}}},
        "responses": {"201": {"content": {"application/json": {}}}}
      }
    }
  },
  "components": {"parameters": {"Id": {"name": "id", "in": "path", "required": true}}}
})~";

class RestOpenApiTest : public RouteFileTest {
 protected:
  RestOpenApiTest() {
    dir = fs::temp_directory_path() /
          fmt::format("dromedary-openapi-{}-{}", ::getpid(),
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
    write("petstore.json", kPetStore);
    h.context.properties().set("camel.server.host", "127.0.0.1");
    h.context.properties().set("dromedary.classpath", dir.string());
  }
  ~RestOpenApiTest() override { fs::remove_all(dir); }

  void write(const std::string& name, const std::string& text) {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name) << text;
  }

  HttpReply request(const std::string& method, const std::string& target,
                    const HttpHeaders& headers = {}, const std::string& body = {}) {
    uint16_t port = platformHttpPort(h.context);
    EXPECT_NE(port, 0);
    return httpRequest(port, method, target, headers, body);
  }

  fs::path dir;
};

// The routes of the four operations, each answering with its name.
constexpr const char* kImplemented = R"(
- from: {uri: direct:getPet, steps: [{setBody: {simple: "pet ${header.id}"}}]}
- from: {uri: direct:findPets, steps: [{setBody: {simple: "pets ${header.status}"}}]}
- from:
    uri: direct
    parameters: {name: addPet}
    steps: [{setBody: {simple: "added ${body}"}}]
- from: {uri: "direct:GENOPID_DELETE.pets._id_", steps: [{setBody: {constant: "deleted"}}]}
)";

TEST_F(RestOpenApiTest, EachOperationIsRoutedToDirectOperationIdUnderTheDocumentsBasePath) {
  loadYaml(fmt::format(R"(
- restConfiguration: {{port: 0}}
- rest:
    openApi:
      specification: petstore.json
      missingOperation: fail
{})",
                       kImplemented)
               .c_str());
  EXPECT_EQ(request("GET", "/v1/pets/7").body, "pet 7");
  EXPECT_EQ(request("GET", "/v1/pets?status=sold").body, "pets sold");
  EXPECT_EQ(request("POST", "/v1/pets", {{"Content-Type", "application/json"}}, "{}").body,
            "added {}");
  EXPECT_EQ(request("DELETE", "/v1/pets/7").body, "deleted");
  EXPECT_EQ(request("PUT", "/v1/pets/7").status, 405);
  EXPECT_EQ(request("GET", "/v1/cats").status, 404);
}

TEST_F(RestOpenApiTest, TheContextPathAndTheComponentsBasePathReplaceTheDocuments) {
  loadYaml(fmt::format(R"(
- restConfiguration: {{port: 0, contextPath: /shop}}
- rest: {{openApi: {{specification: petstore.json, missingOperation: fail}}}}
{})",
                       kImplemented)
               .c_str());
  EXPECT_EQ(request("GET", "/shop/pets/1").body, "pet 1");
  EXPECT_EQ(request("GET", "/v1/pets/1").status, 404);

  RouteHarness other;
  other.context.properties().set("camel.server.host", "127.0.0.1");
  other.context.properties().set("dromedary.classpath", dir.string());
  other.context.properties().set("camel.component.rest-openapi.base-path", "/store");
  auto loaded = loadYamlRoutes(other.context,
                               fmt::format("- restConfiguration: {{port: 0, contextPath: /shop}}\n"
                                           "- rest: {{openApi: {{specification: petstore.json}}}}\n"
                                           "{}",
                                           kImplemented),
                               "routes.yaml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  ASSERT_TRUE(other.context.start());
  EXPECT_EQ(
      httpRequest(platformHttpPort(other.context), "GET", "/store/pets/2", HttpHeaders{}).body,
      "pet 2");
}

TEST_F(RestOpenApiTest, MissingOperationFailNamesEveryOperationWithoutARoute) {
  EXPECT_EQ(yamlError(R"(
- rest:
    openApi:
      specification: petstore.json
      missingOperation: fail
- from: {uri: direct:getPet, steps: [{log: x}]}
)"),
            "OpenAPI document 'petstore.json' has 3 operations without a route: "
            "direct:GENOPID_DELETE.pets._id_, direct:addPet, direct:findPets at routes.yaml:3:5; "
            "add a route from each, or set missingOperation to ignore or mock");
}

// Camel's default: mock in the dev profile (Camel JBang's and dromedary run's), else fail.
TEST_F(RestOpenApiTest, MissingOperationIsMockInTheDevProfileAndFailOtherwise) {
  h.context.properties().set("camel.main.profile", "prod");
  EXPECT_NE(yamlError("- rest: {openApi: {specification: petstore.json}}\n")
                .find("has 4 operations without a route"),
            std::string::npos);
  RouteHarness dev;
  dev.context.properties().set("camel.server.host", "127.0.0.1");
  dev.context.properties().set("dromedary.classpath", dir.string());
  auto loaded = loadYamlRoutes(
      dev.context,
      "- restConfiguration: {port: 0}\n- rest: {openApi: {specification: petstore.json}}\n",
      "routes.yaml");
  ASSERT_TRUE(loaded) << loaded.error().toString();
  ASSERT_TRUE(dev.context.start());
  EXPECT_EQ(
      httpRequest(platformHttpPort(dev.context), "GET", "/v1/pets/1", {{"Accept", "*/*"}}).body,
      R"({"name":"Tom","age":3})");
}

// Camel's order: a mock file whose path ends with the request's, the request itself for
// DELETE/PUT/POST/PATCH, the 200 response's example in the type asked for, else 204.
TEST_F(RestOpenApiTest, MockAnswersFromFilesThenTheRequestThenTheDocumentsExamples) {
  write("camel-mock/pets/7.json", R"({"name": "Felix"})");
  write("camel-mock/pets/8.xml", "<pet>Rex</pet>");
  loadYaml(R"(
- restConfiguration: {port: 0}
- rest: {openApi: {specification: petstore.json, missingOperation: mock}}
)");
  HttpReply file = request("GET", "/v1/pets/7");
  EXPECT_EQ(file.status, 200);
  EXPECT_EQ(file.contentType, "application/json");
  EXPECT_EQ(file.body, R"({"name": "Felix"})");
  HttpReply xml_file = request("GET", "/v1/pets/8", {{"Content-Type", "application/xml"}});
  EXPECT_EQ(xml_file.contentType, "text/xml");
  EXPECT_EQ(xml_file.body, "<pet>Rex</pet>");

  HttpReply echoed = request("POST", "/v1/pets", {{"Content-Type", "application/json"}}, "[1]");
  EXPECT_EQ(echoed.status, 200);
  EXPECT_EQ(echoed.body, "[1]");

  HttpReply json = request("GET", "/v1/pets/9", {{"Accept", "*/*"}});
  EXPECT_EQ(json.status, 200);
  EXPECT_EQ(json.contentType, "application/json");
  EXPECT_EQ(json.body, R"({"name":"Tom","age":3})");
  HttpReply xml = request("GET", "/v1/pets/9", {{"Accept", "text/html, application/xml;q=0.9"}});
  EXPECT_EQ(xml.contentType, "application/xml");
  EXPECT_EQ(xml.body, "<pet>Tom</pet>");

  EXPECT_EQ(request("GET", "/v1/pets/9", {{"Accept", "text/plain"}}).status, 204);
  EXPECT_EQ(request("GET", "/v1/pets?status=sold", {{"Accept", "*/*"}}).status, 204);
}

TEST_F(RestOpenApiTest, MockFilesComeFromTheFoldersTheIncludePatternNames) {
  write("answers/pets/3.json", R"({"from": "answers"})");
  write("answers/pets/4.txt", "not a pet");
  h.context.properties().set("camel.component.rest-openapi.mockIncludePattern",
                             fmt::format("file:{}/answers/**/*.json", dir.string()));
  loadYaml(R"(
- restConfiguration: {port: 0}
- rest: {openApi: {specification: petstore.json, missingOperation: mock}}
)");
  EXPECT_EQ(request("GET", "/v1/pets/3").body, R"({"from": "answers"})");
  EXPECT_EQ(request("GET", "/v1/pets/4", {{"Accept", "*/*"}}).body, R"({"name":"Tom","age":3})");
}

TEST_F(RestOpenApiTest, MissingOperationIgnoreAnswersWithTheRequest) {
  loadYaml(R"(
- restConfiguration: {port: 0}
- rest: {openApi: {specification: petstore.json, missingOperation: ignore}}
- from: {uri: direct:getPet, steps: [{setBody: {simple: "pet ${header.id}"}}]}
)");
  EXPECT_EQ(request("GET", "/v1/pets/5").body, "pet 5");
  EXPECT_EQ(request("POST", "/v1/pets", {{"Content-Type", "application/json"}}, "{}").body, "{}");
}

TEST_F(RestOpenApiTest, ClientRequestValidationAnswersWithCamelsStatusesAndTexts) {
  loadYaml(fmt::format(R"(
- restConfiguration: {{port: 0, clientRequestValidation: true}}
- rest: {{openApi: {{specification: petstore.json}}}}
{})",
                       kImplemented)
               .c_str());
  const HttpHeaders tenant{{"X-Tenant", "a"}};
  EXPECT_EQ(request("GET", "/v1/pets?status=sold", tenant).body, "pets sold");
  HttpReply no_query = request("GET", "/v1/pets", tenant);
  EXPECT_EQ(no_query.status, 400);
  EXPECT_EQ(no_query.body, "Some of the required query parameters are missing.");
  EXPECT_EQ(request("GET", "/v1/pets?status=sold").body,
            "Some of the required HTTP headers are missing.");
  EXPECT_EQ(request("GET", "/v1/pets?status=lost", tenant).body,
            "Some of the query parameters or HTTP headers has a not-allowed value.");
  const HttpHeaders json{{"Content-Type", "application/json"}};
  EXPECT_EQ(request("POST", "/v1/pets", json).body, "The request body is missing.");
  HttpReply bad = request("POST", "/v1/pets", json, R"({"name": )");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.body, "Invalid JSon payload.");
  EXPECT_EQ(request("POST", "/v1/pets", {{"Content-Type", "text/plain"}}, "x").status, 415);
  EXPECT_EQ(request("GET", "/v1/pets/1", {{"Accept", "text/plain"}}).status, 406);
  EXPECT_EQ(request("POST", "/v1/pets", json, R"({"name": "Tom"})").body,
            R"(added {"name": "Tom"})");
}

TEST_F(RestOpenApiTest, ClientResponseValidationAnswers500ForAReplyTheDocumentDoesNotAllow) {
  loadYaml(R"(
- restConfiguration: {port: 0, clientResponseValidation: true}
- rest: {openApi: {specification: petstore.json, missingOperation: ignore}}
- from:
    uri: direct:getPet
    steps:
      - setHeader: {name: Content-Type, constant: text/plain}
      - setBody: {constant: "a pet"}
- from:
    uri: direct:findPets
    steps:
      - setHeader: {name: Content-Type, constant: application/json}
      - setBody: {constant: "{not json"}
)");
  HttpReply wrong_type = request("GET", "/v1/pets/1");
  EXPECT_EQ(wrong_type.status, 500);
  EXPECT_EQ(wrong_type.body, "Invalid content-type: text/plain for response code: 200");
  HttpReply bad_json = request("GET", "/v1/pets?status=sold");
  EXPECT_EQ(bad_json.status, 500);
  EXPECT_EQ(bad_json.body, "Invalid response JSon payload.");
}

TEST_F(RestOpenApiTest, TheDocumentIsServedAtApiContextPathUnderTheBasePath) {
  loadYaml(R"(
- restConfiguration: {port: 0, apiContextPath: api-doc}
- rest: {openApi: {specification: petstore.json, missingOperation: mock, routeId: pets}}
)");
  HttpReply doc = request("GET", "/v1/api-doc");
  EXPECT_EQ(doc.status, 200);
  EXPECT_EQ(doc.contentType, "application/json");
  EXPECT_EQ(doc.body, kPetStore);
  auto ids = h.context.routeIds();
  EXPECT_NE(std::find(ids.begin(), ids.end(), "pets-getPet"), ids.end());
  EXPECT_NE(std::find(ids.begin(), ids.end(), "pets-api-doc"), ids.end());
}

TEST_F(RestOpenApiTest, XmlOpenApiAndAYamlDocumentAreReadTheSameWay) {
  write("pets.yaml", R"(openapi: 3.1.0
info: {title: pets, version: "1"}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      responses:
        "200":
          content:
            application/json:
              example: {name: Tom, tags: [a, "1"], age: 3}
)");
  loadXml(R"(<camel>
  <restConfiguration port="0" apiContextPath="/doc"/>
  <rest><openApi specification="pets.yaml" missingOperation="mock"/></rest>
</camel>)");
  HttpReply pet = request("GET", "/pets/1", {{"Accept", "application/json"}});
  EXPECT_EQ(pet.body, R"({"name":"Tom","tags":["a","1"],"age":3})");
  HttpReply doc = request("GET", "/doc");
  EXPECT_EQ(doc.contentType, "text/yaml");
  EXPECT_EQ(doc.body.substr(0, 14), "openapi: 3.1.0");
}

TEST_F(RestOpenApiTest, ADisabledOpenApiServesNothing) {
  loadYaml(R"(
- restConfiguration: {port: 0}
- rest: {openApi: {specification: petstore.json, disabled: true}}
- from: {uri: platform-http:/up, steps: [{setBody: {constant: up}}]}
)");
  EXPECT_EQ(request("GET", "/v1/pets/1").status, 404);
}

TEST_F(RestOpenApiTest, ErrorsInTheRouteFileNameWhereTheyAre) {
  EXPECT_EQ(yamlError("- rest: {openApi: {specification: nope.json}}\n"),
            fmt::format("resource:classpath:nope.json is not in the route files' folders nor the "
                        "working folder ({}, .) at routes.yaml:1:20",
                        dir.string()));
  EXPECT_EQ(yamlError("- rest: {openApi: {specifcation: petstore.json}}\n"),
            "unknown key 'specifcation' in openApi at routes.yaml:1:20; did you mean "
            "'specification'?");
  EXPECT_EQ(yamlError("- rest: {openApi: {missingOperation: mock}}\n"),
            "openApi has no specification at routes.yaml:1:10; name the OpenAPI document, e.g. "
            "'specification: petstore.json'");
  EXPECT_EQ(yamlError("- rest: {openApi: {specification: petstore.json, missing-operation: "
                      "skip}}\n"),
            "missingOperation 'skip' is not one of fail, ignore or mock at routes.yaml:1:50");
  EXPECT_EQ(yamlError("- rest: {openApi: {specification: petstore.json, disabled: maybe}}\n"),
            "disabled must be true or false, not 'maybe' at routes.yaml:1:50");
  EXPECT_EQ(yamlError("- rest: {openApi: {specification: petstore.json, missingOperation: mock, "
                      "mockIncludePattern: mocks/**}}\n"),
            "mockIncludePattern 'mocks/**' must start with file: or classpath: at "
            "routes.yaml:1:10");
  EXPECT_EQ(yamlError("- rest: {openApi: {specification: http://host/pets.json}}\n"),
            "specification 'http://host/pets.json' is not fetched here at routes.yaml:1:20; "
            "save the document beside the route files and name the file");
  EXPECT_EQ(yamlError("- rest:\n    openApi: {specification: petstore.json}\n    get: "
                      "[{to: direct:x}]\n"),
            "a rest with openApi has no verbs of its own at routes.yaml:3:11; put these verbs "
            "in a rest of their own");
  EXPECT_EQ(yamlError("- restConfiguration: {apiContextPath: /doc}\n- rest: {get: [{to: "
                      "direct:x}]}\n"),
            "apiContextPath: an OpenAPI document is served only for a rest openApi at "
            "routes.yaml:1:39; remove it; code-first rests have no document here");
  EXPECT_EQ(yamlError("- restConfiguration: {clientRequestValidation: true}\n- rest: {get: "
                      "[{to: direct:x}]}\n"),
            "clientRequestValidation: true applies to rest openApi here, not to code-first "
            "verbs at routes.yaml:1:48; remove it: code-first verbs answer 415 and 406 by "
            "consumes and produces");
}

TEST_F(RestOpenApiTest, ErrorsInTheDocumentNameItsLineAndColumn) {
  write("broken.json", "{\n  \"openapi\": \"3.0.0\",\n  \"paths\": {\n    \"/a\": [\n}");
  EXPECT_NE(yamlError("- rest: {openApi: {specification: broken.json}}\n")
                .find("OpenAPI document cannot be read: "),
            std::string::npos);
  EXPECT_NE(yamlError("- rest: {openApi: {specification: broken.json}}\n").find("broken.json:5:"),
            std::string::npos);
  write("swagger.json", R"({"swagger": "2.0", "paths": {}})");
  EXPECT_EQ(yamlError("- rest: {openApi: {specification: swagger.json}}\n"),
            "swagger.json:1:13: OpenAPI document is Swagger 2: only OpenAPI 3.0 and 3.1 are "
            "read, as Camel's at routes.yaml:1:20");
  write("outside.yaml",
        "openapi: 3.0.0\npaths:\n  /a:\n    get:\n      parameters:\n"
        "        - $ref: 'common.yaml#/Id'\n");
  EXPECT_EQ(yamlError("- rest: {openApi: {specification: outside.yaml}}\n"),
            "outside.yaml:6:17: OpenAPI document refers to 'common.yaml#/Id' outside itself: "
            "only '#/...' references are followed at routes.yaml:1:20");
  write("nopaths.yaml", "openapi: 3.0.0\ninfo: {title: x}\n");
  EXPECT_EQ(yamlError("- rest: {openApi: {specification: nopaths.yaml}}\n"),
            "nopaths.yaml:1:1: OpenAPI document has no paths: there is nothing to serve at "
            "routes.yaml:1:20");
}

}  // namespace
}  // namespace dromedary::testing
