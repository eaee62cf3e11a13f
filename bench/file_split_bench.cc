// SPDX-License-Identifier: Apache-2.0
// file_split_lines: a CSV file split line by line, each line upper-cased and appended to an
// output file, beside awk doing the same on the same file in the same run. The route is the
// file consumer's (the body is the file, read in chunks by split/tokenize in streaming mode):
//
//   from file:in -> split(tokenize "\n").streaming()
//                     -> setBody ${body.toUpperCase()} -> file:out (Append, appendChars \n)
//
// and `group` > 1 (--group N) cuts N lines per item instead, written with one append each.
// Reports MB/s, CPU seconds and the process's peak RSS (the route runs first in this process;
// awk is a child: its own peak).
//
//   dromedary_file_split_bench [--mb 1024] [--group 1] [--dir /tmp]
#include <dromedary/dromedary.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double cpuSeconds(int who) {
  rusage u{};
  getrusage(who, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

long peakRssKb(int who) {
  rusage u{};
  getrusage(who, &u);
  return u.ru_maxrss;
}

// About `mb` MB of CSV lines (order id, customer, amount, note), written in 1 MB pieces.
void makeCsv(const std::string& path, size_t mb) {
  fs::create_directories(fs::path(path).parent_path());
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) std::exit(1);
  std::string piece;
  size_t line = 0;
  for (size_t written = 0; written < mb << 20;) {
    piece.clear();
    while (piece.size() < (1u << 20)) {
      fmt::format_to(std::back_inserter(piece), "{},customer-{},{}.{:02},note for order {}\n", line,
                     line % 977, line % 10000, line % 100, line);
      ++line;
    }
    if (::write(fd, piece.data(), piece.size()) != static_cast<ssize_t>(piece.size())) std::exit(1);
    written += piece.size();
  }
  ::close(fd);
}

struct Row {
  std::string name;
  double seconds = 0;
  double cpu = 0;
  long rssKb = 0;
};

Row route(const std::string& in, const std::string& out, int group) {
  dromedary::Context context;
  dromedary::registerBuiltinComponents(context);
  dromedary::setLogLevel(dromedary::LoggingLevel::Warn);
  auto added = context.addRoutes([&](dromedary::RouteBuilder& b) {
    b.from("file:" + in + "?initialDelay=0&delay=10")
        .split(dromedary::tokenize("\n", false, group))
        .streaming()
        .setBody(dromedary::simple("${body.toUpperCase()}"))
        .to("file:" + out + "?fileName=out.csv&fileExist=Append&forceWrites=false&appendChars=\\n")
        .end();
  });
  if (!added) std::exit(1);
  const double cpu0 = cpuSeconds(RUSAGE_SELF);
  const auto t0 = Clock::now();
  if (!context.start()) std::exit(1);
  while (!fs::exists(in + "/.camel/data.csv"))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  Row r{group > 1 ? fmt::format("route, {} lines per item", group) : "route, a line per item",
        std::chrono::duration<double>(Clock::now() - t0).count(), cpuSeconds(RUSAGE_SELF) - cpu0,
        peakRssKb(RUSAGE_SELF)};
  context.stop();
  return r;
}

Row awk(const std::string& in, const std::string& out) {
  const double cpu0 = cpuSeconds(RUSAGE_CHILDREN);
  const auto t0 = Clock::now();
  std::string cmd = fmt::format("awk '{{ print toupper($0) }}' '{}' > '{}'", in, out);
  if (std::system(cmd.c_str()) != 0) std::exit(1);
  return {"awk '{ print toupper($0) }'", std::chrono::duration<double>(Clock::now() - t0).count(),
          cpuSeconds(RUSAGE_CHILDREN) - cpu0, peakRssKb(RUSAGE_CHILDREN)};
}

}  // namespace

int main(int argc, char** argv) {
  size_t mb = 1024;
  int group = 1;
  std::string base = "/tmp";
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--mb") mb = static_cast<size_t>(std::atoll(argv[i + 1]));
    if (a == "--group") group = std::atoi(argv[i + 1]);
    if (a == "--dir") base = argv[i + 1];
  }
  const std::string root = fmt::format("{}/dromedary_split_bench_{}", base, ::getpid());
  const std::string csv = root + "/in/data.csv";
  makeCsv(csv, mb);
  const double size_mb = static_cast<double>(fs::file_size(csv)) / (1 << 20);
  Row r = route(root + "/in", root + "/out", group);
  const std::string moved = root + "/in/.camel/data.csv";
  const auto routed_size = fs::file_size(root + "/out/out.csv");
  Row a = awk(moved, root + "/awk.csv");
  const bool same =
      routed_size == fs::file_size(root + "/awk.csv") &&
      std::system(fmt::format("cmp -s '{}/out/out.csv' '{}/awk.csv'", root, root).c_str()) == 0;
  fs::remove_all(root);

  std::printf("file_split_lines: %.0f MB of CSV lines%s\n\n", size_mb,
              same ? "; the route's output is byte for byte awk's" : "; OUTPUTS DIFFER");
  std::printf(
      "| way | MB/s | CPU (s) | peak RSS (MB) | vs awk |\n| --- | ---: | ---: | ---: | ---: |\n");
  for (const Row& x : {r, a}) {
    std::printf("| %s | %.1f | %.1f | %.1f | %.2fx |\n", x.name.c_str(), size_mb / x.seconds, x.cpu,
                static_cast<double>(x.rssKb) / 1024, a.seconds / x.seconds);
  }
  return same ? 0 : 1;
}
