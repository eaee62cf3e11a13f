// SPDX-License-Identifier: Apache-2.0
// http: and https: — the components, their option table (Camel's camel-http names and
// defaults), endpoints and the connection pools they share. The request and reply mapping is
// in http_producer.cc, the loop driving libcurl in curl_loop.cc.
#include <unistd.h>

#include <map>
#include <mutex>

#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/http_client/http_client.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/option_table.h>

#include "curl_loop.h"
#include "http_failures.h"
#include "http_producer.h"

namespace dromedary {
namespace component::httpclient {

namespace {

constexpr OptionSpec kOptions[] = {
    {"httpMethod", OptionType::Enum, "",
     "The method for every request; default: the CamelHttpMethod header, else GET with a "
     "query, else POST with a body, else GET",
     "GET,POST,PUT,DELETE,HEAD,OPTIONS,TRACE,PATCH"},
    {"throwExceptionOnFailure", OptionType::Bool, "true",
     "Fail the exchange with an HttpOperationFailedException when the reply's status is not "
     "in okStatusCodeRange; false: every reply becomes the message"},
    {"okStatusCodeRange", OptionType::String, "200-299",
     "The statuses that are a success: ranges and single statuses, comma-separated"},
    {"bridgeEndpoint", OptionType::Bool, "false",
     "Ignore the CamelHttpUri header (a proxy route's request URI) and send to this endpoint, "
     "with the CamelHttpPath and CamelHttpQuery headers"},
    {"connectTimeout", OptionType::Duration, "3m",
     "How long a new connection (name lookup, TCP and TLS handshakes) may take; 0: no limit"},
    {"connectionRequestTimeout", OptionType::Duration, "3m",
     "How long a request may wait for a connection while maxTotalConnections or "
     "connectionsPerRoute are all in use; 0: no limit"},
    {"soTimeout", OptionType::Duration, "3m",
     "A request fails when the server sends nothing for this long (whole seconds); 0: no "
     "limit"},
    {"socketTimeout", OptionType::Duration, "",
     "Camel 3's name for soTimeout"},
    {"responseTimeout", OptionType::Duration, "0",
     "How long the whole request may take until the reply is in; 0: no limit"},
    {"followRedirects", OptionType::Bool, "false",
     "Follow 3xx replies (up to 50); false: a 3xx reply is the reply (a failure unless "
     "okStatusCodeRange takes it)"},
    {"authMethod", OptionType::Enum, "",
     "Basic, Digest, NTLM or Bearer; default Basic when authUsername is set, Bearer when "
     "authBearerToken is",
     "Basic,Digest,NTLM,Bearer"},
    {"authUsername", OptionType::String, "", "User name for authMethod"},
    {"authPassword", OptionType::String, "", "Password for authMethod"},
    {"authBearerToken", OptionType::String, "", "Token sent as Authorization: Bearer TOKEN"},
    {"authenticationPreemptive", OptionType::Bool, "false",
     "Accepted for Camel's files: Basic credentials are always sent with the first request"},
    {"maxTotalConnections", OptionType::Int, "200",
     "Connections open at once, over every host, in this endpoint's pool (endpoints with the "
     "same limits share one pool)"},
    {"connectionsPerRoute", OptionType::Int, "20",
     "Connections open at once to one host; more requests wait for one"},
    {"skipRequestHeaders", OptionType::Bool, "false",
     "Send none of the message's headers"},
    {"skipResponseHeaders", OptionType::Bool, "false",
     "Set none of the reply's headers on the message"},
    {"copyHeaders", OptionType::Bool, "true",
     "Keep the message's headers on the reply (but its Content-* and other entity headers)"},
    {"headerFilterStrategy", OptionType::String, "",
     "#name of a bound HeaderFilterStrategy deciding which headers are sent and taken; "
     "default: Camel's own (Camel*, org.apache.camel.*) never are"},
    {"ignoreResponseBody", OptionType::Bool, "false", "Leave the reply's body out (null body)"},
    {"clearExpiredCookies", OptionType::Bool, "true",
     "Accepted: expired cookies are never sent and are dropped as new ones arrive"},
    {"disableStreamCache", OptionType::Bool, "false",
     "Keep the reply in memory whatever its size: never spool it to a file (stream caching)"},
    {"getWithBody", OptionType::Bool, "false", "Send the message body with a GET"},
    {"deleteWithBody", OptionType::Bool, "false", "Send the message body with a DELETE"},
    {"userAgent", OptionType::String, "", "The User-Agent request header"},
    {"customHostHeader", OptionType::String, "", "The Host request header"},
    {"preserveHostHeader", OptionType::Bool, "false",
     "Send the message's Host header (a proxy route's request's) as the Host"},
    {"connectionClose", OptionType::Bool, "false",
     "Send Connection: close: no keep-alive for this endpoint's requests"},
    {"x509HostnameVerifier", OptionType::String, "",
     "NoopHostnameVerifier (or #noop) accepts a certificate for another host name; default: "
     "the name must match"},
    {"sslTrustCertificates", OptionType::String, "",
     "A PEM file of the certificate authorities to trust, instead of the system's"},
    {"sslCertificate", OptionType::String, "", "A PEM client certificate to present"},
    {"sslKey", OptionType::String, "", "The PEM private key of sslCertificate"},
    {"sslKeyPassword", OptionType::String, "", "The password of sslKey, if it has one"},
    {"proxyHost", OptionType::String, "", "An HTTP proxy's host (no proxy by default)"},
    {"proxyPort", OptionType::Int, "0", "The proxy's port"},
    {"proxyAuthUsername", OptionType::String, "", "The proxy's user name"},
    {"proxyAuthPassword", OptionType::String, "", "The proxy's password"},
};

// Camel's http options this component does not have: refused by name, rather than sent to the
// server as a query parameter (what an unknown option of a lenient endpoint is).
constexpr std::string_view kUnsupported[] = {
    "httpClientConfigurer", "httpContext",         "clientBuilder",     "clientConnectionManager",
    "httpClient",           "cookieStore",         "cookieHandler",     "httpBinding",
    "sslContextParameters", "useSystemProperties", "transferException", "httpConnection",
    "chunked",              "oauth2ClientId",      "oauth2ClientSecret", "oauth2TokenEndpoint",
    "loggingLevel",         "logHttpActivity",     "httpActivityListener", "proxyAuthScheme",
    "proxyAuthMethod",      "proxyAuthDomain",     "proxyAuthNtHost",   "authDomain",
    "authHost",             "httpClientOptions",
};

bool readable(const std::string& path) { return ::access(path.c_str(), R_OK) == 0; }

class HttpComponent;

class HttpEndpoint final : public Endpoint {
 public:
  HttpEndpoint(Component& component, Uri uri, EndpointOptions options,
               std::unique_ptr<EndpointConfig> config)
      : Endpoint(component, std::move(uri), std::move(options)), config_(std::move(config)) {}

  Result<std::unique_ptr<Producer>> createProducer() override {
    return std::unique_ptr<Producer>(std::make_unique<HttpProducer>(*config_));
  }
  Result<std::unique_ptr<Consumer>> createConsumer(Processor&) override {
    return makeError(ErrorCode::InvalidRoute,
                     fmt::format("cannot consume from '{}': the {} component only sends "
                                 "requests; serve HTTP with platform-http",
                                 uri(), component().scheme()));
  }

 private:
  std::unique_ptr<EndpointConfig> config_;
};

// A cookie share is used by every loop that runs its endpoint's requests.
void lockCookies(CURL*, curl_lock_data, curl_lock_access, void* mutex) {
  static_cast<std::mutex*>(mutex)->lock();
}
void unlockCookies(CURL*, curl_lock_data, void* mutex) {
  static_cast<std::mutex*>(mutex)->unlock();
}

// The connection pools of a context: one per distinct pair of limits, shared by http and
// https and by every endpoint with those limits. Owned by the http component.
struct Pools {
  std::mutex mutex;
  std::map<Limits, std::unique_ptr<CurlPool>> pools;

  CurlPool& pool(Limits limits) {
    std::lock_guard lock(mutex);
    auto& slot = pools[limits];
    if (!slot) slot = std::make_unique<CurlPool>(limits);
    return *slot;
  }
};

class HttpComponent final : public Component {
 public:
  HttpComponent(std::string_view scheme, std::shared_ptr<Pools> pools)
      : scheme_(scheme), pools_(std::move(pools)) {}

  std::string_view scheme() const override { return scheme_; }
  std::string_view syntax() const override {
    return scheme_ == "https" ? "https://httpUri" : "http://httpUri";
  }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }
  bool lenientOptions() const noexcept override { return true; }

  // toD sends to one endpoint per host and options; the path and query go in these headers
  // (the raw query too, which the producer prefers: a platform-http request's would win).
  std::span<const std::string_view> dynamicSendHeaders() const noexcept override {
    static constexpr std::string_view kHeaders[] = {"CamelHttpPath", "CamelHttpQuery",
                                                    "CamelHttpRawQuery"};
    return kHeaders;
  }
  bool splitDynamicUri(std::string_view uri, std::string& endpoint,
                       std::span<std::string> values) const noexcept override {
    if (values.size() != 3 ||
        !httpclient::splitDynamicUri(uri, kOptions, endpoint, values[0], values[1])) {
      return false;
    }
    values[2].assign(values[1]);
    return true;
  }

  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    for (const auto& [name, value] : options.unknownOptions()) {
      bool unsupported = name.starts_with("httpClient.") || name.starts_with("httpConnection.");
      for (std::string_view camel : kUnsupported) unsupported |= equalsIgnoreCaseAscii(name, camel);
      if (unsupported) {
        return makeError(ErrorCode::UnknownOption,
                         fmt::format("option '{}' of endpoint '{}' is one of Camel's that "
                                     "Dromedary's {} component does not have (docs/http.md "
                                     "lists those it has)",
                                     name, uri.text(), scheme_));
      }
    }
    auto config = std::make_unique<EndpointConfig>();
    EndpointConfig& c = *config;
    c.uri = uri.text();
    c.context = &context();
    DROMEDARY_TRY(target, targetOf(scheme_, uri.text(), kOptions));
    c.target = std::move(target);
    c.method = options.getString("httpMethod");
    DROMEDARY_TRY(ranges, parseStatusRanges(options.getString("okStatusCodeRange")));
    c.okRanges = std::move(ranges);
    c.throwOnFailure = options.getBool("throwExceptionOnFailure");
    c.bridge = options.getBool("bridgeEndpoint");
    if (!c.bridge) {
      c.cookieMutex = std::make_unique<std::mutex>();
      c.cookies.reset(curl_share_init());
      curl_share_setopt(c.cookies.get(), CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE);
      curl_share_setopt(c.cookies.get(), CURLSHOPT_USERDATA, c.cookieMutex.get());
      curl_share_setopt(c.cookies.get(), CURLSHOPT_LOCKFUNC, &lockCookies);
      curl_share_setopt(c.cookies.get(), CURLSHOPT_UNLOCKFUNC, &unlockCookies);
    }
    c.followRedirects = options.getBool("followRedirects");
    c.skipRequestHeaders = options.getBool("skipRequestHeaders");
    c.skipResponseHeaders = options.getBool("skipResponseHeaders");
    c.copyHeaders = options.getBool("copyHeaders");
    c.ignoreResponseBody = options.getBool("ignoreResponseBody");
    c.disableStreamCache = options.getBool("disableStreamCache");
    c.getWithBody = options.getBool("getWithBody");
    c.deleteWithBody = options.getBool("deleteWithBody");
    c.connectionClose = options.getBool("connectionClose");
    c.preserveHostHeader = options.getBool("preserveHostHeader");
    c.connectTimeoutMs = static_cast<long>(options.getDuration("connectTimeout").count());
    c.responseTimeoutMs = static_cast<long>(options.getDuration("responseTimeout").count());
    c.connectionRequestTimeoutMs =
        static_cast<long>(options.getDuration("connectionRequestTimeout").count());
    auto so = options.isSet("socketTimeout") ? options.getDuration("socketTimeout")
                                             : options.getDuration("soTimeout");
    c.soTimeoutSeconds = static_cast<long>((so.count() + 999) / 1000);
    DROMEDARY_TRY_VOID(authentication(uri, options, c));
    c.userAgent = options.getString("userAgent");
    c.customHostHeader = options.getString("customHostHeader");
    const std::string& verifier = options.getString("x509HostnameVerifier");
    if (!verifier.empty()) {
      std::string_view v = verifier;
      if (v.starts_with('#')) v.remove_prefix(1);
      if (v.ends_with("NoopHostnameVerifier") || equalsIgnoreCaseAscii(v, "noop")) {
        c.verifyHost = false;
      } else if (!v.ends_with("DefaultHostnameVerifier") && !equalsIgnoreCaseAscii(v, "default")) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("x509HostnameVerifier '{}' of endpoint '{}': expected "
                                     "NoopHostnameVerifier (#noop) or DefaultHostnameVerifier",
                                     verifier, uri.text()));
      }
    }
    for (auto [option, field] : {std::pair{"sslTrustCertificates", &c.caFile},
                                 std::pair{"sslCertificate", &c.certFile},
                                 std::pair{"sslKey", &c.keyFile}}) {
      *field = options.getString(option);
      if (!field->empty() && !readable(*field)) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("{} '{}' of endpoint '{}' cannot be read", option, *field,
                                     uri.text()));
      }
    }
    c.keyPassword = options.getString("sslKeyPassword");
    if (!options.getString("proxyHost").empty()) {
      c.proxy = fmt::format("http://{}:{}", options.getString("proxyHost"),
                            options.getInt("proxyPort") > 0 ? options.getInt("proxyPort") : 80);
      if (!options.getString("proxyAuthUsername").empty()) {
        c.proxyUserPassword = fmt::format("{}:{}", options.getString("proxyAuthUsername"),
                                          options.getString("proxyAuthPassword"));
      }
    }
    const std::string direct_client =
        context().properties().get("dromedary.http.directClient").value_or("true");
    if (direct_client != "true" && direct_client != "false") {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("dromedary.http.directClient '{}' (for endpoint '{}') must be "
                                   "true or false",
                                   direct_client, uri.text()));
    }
    c.direct = scheme_ == "http" && !c.cookies && !c.followRedirects && c.authMask == 0 &&
               c.bearerToken.empty() && c.proxy.empty() && direct_client == "true";
    DROMEDARY_TRY(filter, headerFilterStrategyOption(context(),
                                                     options.getString("headerFilterStrategy"),
                                                     uri.text(), defaultFilter()));
    c.filter = std::move(filter);
    int64_t total = options.getInt("maxTotalConnections");
    int64_t per_host = options.getInt("connectionsPerRoute");
    if (total < 1 || per_host < 1) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("endpoint '{}': maxTotalConnections and connectionsPerRoute "
                                   "must be at least 1",
                                   uri.text()));
    }
    try {
      c.pool = &pools_->pool({static_cast<long>(total), static_cast<long>(per_host)});
    } catch (const std::exception& e) {
      // Its thread or wake-up descriptor could not be made (descriptors or threads exhausted).
      return makeError(ErrorCode::Io,
                       fmt::format("endpoint '{}': cannot start its connection pool: {}",
                                   uri.text(), e.what()));
    }
    return std::unique_ptr<Endpoint>(
        std::make_unique<HttpEndpoint>(*this, uri, std::move(options), std::move(config)));
  }

 private:
  static std::shared_ptr<const HeaderFilterStrategy> defaultFilter() {
    static const auto strategy = std::make_shared<DefaultHeaderFilterStrategy>();
    return strategy;
  }

  Result<void> authentication(const Uri& uri, const EndpointOptions& options,
                              EndpointConfig& c) const {
    std::string method = options.getString("authMethod");
    const std::string& user = options.getString("authUsername");
    const std::string& token = options.getString("authBearerToken");
    if (method.empty()) method = !token.empty() ? "Bearer" : !user.empty() ? "Basic" : "";
    if (method.empty()) return {};
    if (method == "Bearer") {
      if (token.empty()) {
        return makeError(ErrorCode::InvalidOption,
                         fmt::format("endpoint '{}': authMethod=Bearer needs authBearerToken",
                                     uri.text()));
      }
      c.authMask = static_cast<long>(CURLAUTH_BEARER);
      c.bearerToken = token;
      return {};
    }
    if (user.empty()) {
      return makeError(ErrorCode::InvalidOption,
                       fmt::format("endpoint '{}': authMethod={} needs authUsername",
                                   uri.text(), method));
    }
    c.authMask = static_cast<long>(method == "Digest" ? CURLAUTH_DIGEST
                                   : method == "NTLM" ? CURLAUTH_NTLM
                                                      : CURLAUTH_BASIC);
    c.userPassword = fmt::format("{}:{}", user, options.getString("authPassword"));
    return {};
  }

  std::string scheme_;
  std::shared_ptr<Pools> pools_;
};

}  // namespace

}  // namespace component::httpclient

void registerHttpclientComponent(Context& context) {
  using namespace component::httpclient;
  // libcurl (and OpenSSL under it) is set up by the first curl loop, not here: a process whose
  // routes never call out does not pay for it (~4 MB of resident library pages).
  auto pools = std::make_shared<Pools>();
  context.addComponent(std::make_unique<HttpComponent>("http", pools));
  context.addComponent(std::make_unique<HttpComponent>("https", pools));
  registerHttpExceptionTypes(context);
}

}  // namespace dromedary
