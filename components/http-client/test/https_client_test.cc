// SPDX-License-Identifier: Apache-2.0
// https: against a real TLS server (OpenSSL's s_server, started by the test and stopped by
// its PID) with a certificate authority made in the test: a server the CA vouches for is
// trusted, an unknown one refused, a certificate for another name refused unless the
// endpoint says NoopHostnameVerifier, and a client certificate presented when asked.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "http_client_fixture.h"

namespace dromedary::testing {
namespace {

namespace fs = std::filesystem;

uint16_t freePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

bool accepting(uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

// A CA, a server certificate for "localhost" and a client certificate, made once.
struct TestPki {
  TestPki() {
    dir = fs::temp_directory_path() / fmt::format("dromedary-pki-{}", ::getpid());
    fs::create_directories(dir);
    std::ofstream(dir / "san.ext") << "subjectAltName=DNS:localhost\n";
    std::string d = dir.string();
    std::string key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
    std::string script = fmt::format(
        "cd {0} && "
        "openssl req -x509 {1} -keyout ca.key -out ca.pem -days 2 -subj /CN=DromedaryTestCA && "
        "openssl req {1} -keyout server.key -out server.csr -subj /CN=localhost && "
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
        "-out server.pem -days 2 -extfile san.ext && "
        "openssl req {1} -keyout client.key -out client.csr -subj /CN=client && "
        "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial "
        "-out client.pem -days 2",
        d, key);
    ok = std::system(fmt::format("({}) >{}/pki.log 2>&1", script, d).c_str()) == 0;
  }
  ~TestPki() { fs::remove_all(dir); }
  std::string file(const char* name) const { return (dir / name).string(); }
  fs::path dir;
  bool ok = false;
};

// openssl s_server -www on 127.0.0.1: answers every GET with a status page, over TLS.
struct TlsServer {
  TlsServer(const TestPki& pki, bool require_client_certificate) : port(freePort()) {
    pid = ::fork();
    if (pid == 0) {
      std::string accept = fmt::format("127.0.0.1:{}", port);
      std::string cert = pki.file("server.pem"), key = pki.file("server.key");
      std::string ca = pki.file("ca.pem");
      ::freopen("/dev/null", "w", stdout);
      ::freopen("/dev/null", "w", stderr);
      if (require_client_certificate) {
        ::execlp("openssl", "openssl", "s_server", "-accept", accept.c_str(), "-cert",
                 cert.c_str(), "-key", key.c_str(), "-www", "-Verify", "1", "-CAfile",
                 ca.c_str(), "-verify_return_error", nullptr);
      } else {
        ::execlp("openssl", "openssl", "s_server", "-accept", accept.c_str(), "-cert",
                 cert.c_str(), "-key", key.c_str(), "-www", nullptr);
      }
      ::_exit(127);
    }
    for (int i = 0; i < 200 && !accepting(port); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
  }
  ~TlsServer() {
    ::kill(pid, SIGTERM);
    ::waitpid(pid, nullptr, 0);
  }
  uint16_t port;
  pid_t pid;
};

class HttpsClientTest : public HttpClientFixture {
 protected:
  static void SetUpTestSuite() { pki = new TestPki(); }
  static void TearDownTestSuite() { delete pki; }
  void SetUp() override {
    ASSERT_TRUE(pki->ok) << "openssl could not make the test certificates";
    client.start([](RouteBuilder& b) {
      b.from("direct:call")
          .onException({"javax.net.ssl.SSLException"})
            .handled(true)
            .setBody(simple("tls refused: ${exception.message}"))
          .end()
          .toD("${header.target}");
    });
  }
  std::string callTls(const std::string& target) {
    ExchangePtr ex = acquireExchange(&client.context);
    ex->setPattern(Pattern::InOut);
    ex->message().setHeader("target", Value(target));
    (void)client.producer.send("direct:call", *ex);
    if (ex->failed()) return "failed: " + ex->error().message();
    return ex->message().body().toString();
  }
  static TestPki* pki;
};
TestPki* HttpsClientTest::pki = nullptr;

TEST_F(HttpsClientTest, AServerOurCaVouchesForIsTrusted) {
  TlsServer server(*pki, false);
  std::string body = callTls(fmt::format("https://localhost:{}/?sslTrustCertificates={}",
                                         server.port, pki->file("ca.pem")));
  EXPECT_NE(body.find("s_server"), std::string::npos) << body;
}

TEST_F(HttpsClientTest, AServerNoTrustedCaVouchesForIsRefused) {
  TlsServer server(*pki, false);
  std::string body = callTls(fmt::format("https://localhost:{}/", server.port));
  EXPECT_NE(body.find("tls refused: TLS with https://localhost:"), std::string::npos) << body;
}

TEST_F(HttpsClientTest, ACertificateForAnotherNameIsRefusedUnlessTheVerifierIsNoop) {
  TlsServer server(*pki, false);
  std::string ca = pki->file("ca.pem");
  std::string strict = callTls(
      fmt::format("https://127.0.0.1:{}/?sslTrustCertificates={}", server.port, ca));
  EXPECT_NE(strict.find("tls refused"), std::string::npos) << strict;
  std::string lenient = callTls(fmt::format(
      "https://127.0.0.1:{}/?sslTrustCertificates={}&x509HostnameVerifier=NoopHostnameVerifier",
      server.port, ca));
  EXPECT_NE(lenient.find("s_server"), std::string::npos) << lenient;
}

TEST_F(HttpsClientTest, AClientCertificateIsPresentedWhenTheServerAsksForOne) {
  TlsServer server(*pki, true);
  std::string ca = pki->file("ca.pem");
  std::string with_cert = callTls(fmt::format(
      "https://localhost:{}/?sslTrustCertificates={}&sslCertificate={}&sslKey={}", server.port,
      ca, pki->file("client.pem"), pki->file("client.key")));
  EXPECT_NE(with_cert.find("s_server"), std::string::npos) << with_cert;
  std::string without = callTls(
      fmt::format("https://localhost:{}/?sslTrustCertificates={}", server.port, ca));
  EXPECT_EQ(without.find("s_server"), std::string::npos) << without;
}

}  // namespace
}  // namespace dromedary::testing
