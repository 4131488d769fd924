filedesc://small.arc 0.0.0.0 20261127110000 text/plain 65
1 0 Test
URL IP-address Archive-date Content-type Archive-length

http://site.example/ 192.0.2.1 20261127110001 text/html 171
HTTP/1.0 200 OK
Content-Type: text/html

<!doctype html>
<html><body>
<a href="http://links.example/one">one</a>
<img src="https://img.example/two.png">
</body></html>

dns:site.example 192.0.2.2 20261127110002 text/dns 48
20261127110000
site.example. 300 IN A 192.0.2.1

