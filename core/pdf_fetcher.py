"""The only resources a PDF of ours may load: `data:` URLs already in the page.

Everything a report shows (deposit slip scans, QR codes) is embedded by the
code that builds it, so WeasyPrint never needs the network or the disk. Its
default fetcher would follow any `http:`, `ftp:` or `file:` URL that reached a
template, and builds an SSL context on every render (about 30 ms) to do so.
This module imports WeasyPrint, so `core.pdf` imports it lazily.
"""

from urllib.request import DataHandler, Request

from weasyprint.urls import URLFetcher, URLFetcherResponse


class DataOnlyFetcher(URLFetcher):
    def __init__(self):
        # URLFetcher.__init__ builds an opener for every protocol; none is needed here.
        self._fail_on_errors = False
        self._data = DataHandler()

    def fetch(self, url, headers=None):
        if not url.startswith("data:"):
            # WeasyPrint logs this and leaves the resource out of the PDF.
            raise ValueError(f"a PDF only embeds data: URLs, not {url[:60]}")
        response = self._data.data_open(Request(url))
        return URLFetcherResponse(url, response.read(), dict(response.headers.items()))
