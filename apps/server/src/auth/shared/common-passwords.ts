/**
 * Passwords that lead every published list of leaked and guessed passwords, lower-case. Kept as a TypeScript array
 * rather than a data file because the server build (scripts/lib/server-build.mjs) bundles modules and copies only the
 * migrations and the database worker; a text file beside this one would be missing from apps/server/dist.
 *
 * The policy (password-policy.ts) also refuses one of these wrapped in digits and symbols ('dragon2024!'), so the short
 * entries are here as stems, not because a six-letter password could pass the length rule.
 */
export const COMMON_PASSWORDS: readonly string[] = [
  // Keyboard runs and digit runs
  '123456', '1234567', '12345678', '123456789', '1234567890', '12345678910', '0123456789', '987654321', '9876543210',
  '87654321', '123123', '123123123', '123321', '1234554321', '123454321', '112233', '11223344', '111222', '111222333',
  '121212', '12121212', '123qwe', '123qweasd', '1q2w3e', '1q2w3e4r', '1q2w3e4r5t', '1qaz2wsx', '1qaz2wsx3edc', 'zaq12wsx',
  'zaq1zaq1', 'qazwsx', 'qazwsxedc', 'qwerty', 'qwerty1', 'qwerty12', 'qwerty123', 'qwerty1234', 'qwertyui', 'qwertyuiop',
  'qwertz', 'qwertzuiop', 'azerty', 'azertyuiop', 'asdfgh', 'asdfghjk', 'asdfghjkl', 'asdf1234', 'zxcvbn', 'zxcvbnm',
  'zxcvbnm123', 'qweasd', 'qweasdzxc', 'q1w2e3r4', 'q1w2e3r4t5', 'a1b2c3d4', 'abc123', 'abcd1234', 'abcdef',
  'abcdefg', 'abcdefgh', 'abcdefghi', 'abc12345', 'aaaaaaaa', 'aaaaaa', 'qqqqqqqq', 'zzzzzzzz', 'xxxxxxxx',
  '1111111111', '11111111', '111111', '00000000', '000000', '0000000000', '22222222', '33333333', '44444444', '55555555',
  '66666666', '77777777', '88888888', '99999999', '12341234', '43214321', '13131313', '69696969', '147258369',
  '159753', '159357', '147852369', '741852963', '951753', '789456123', '456789', '654321', '7654321', '1029384756',
  '1234qwer', 'qwer1234', '1qazxsw2', '!qaz2wsx', 'qwe123', 'asd123', 'zxc123', 'pass1234', '12qwaszx',
  // The word itself and its dressings
  'password', 'password1', 'password12', 'password123', 'password1234', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa55word',
  'pa55w0rd', 'passwort', 'motdepasse', 'contrasena', 'contraseña', 'senha', 'parola', 'wachtwoord', 'salasana',
  'haslo', 'heslo', 'jelszo', 'lozinka', 'passord', 'losenord', 'adgangskode', 'kennwort', 'mypassword', 'newpassword',
  'changeme', 'changeit', 'change_me', 'secret', 'secret123', 'supersecret', 'topsecret', 'letmein', 'letmein1',
  'letmein123', 'openup', 'opensesame', 'welcome', 'welcome1', 'welcome123', 'welcome2024', 'default', 'guest',
  'temp1234', 'temppass', 'temporary', 'test1234', 'testing', 'testing123', 'tester', 'test123', 'testtest', 'admin',
  'admin123', 'admin1234', 'administrator', 'root', 'toor', 'rootroot', 'sysadmin', 'system', 'manager', 'master',
  'masterkey', 'login', 'login123', 'access', 'access14', 'user1234', 'username', 'unknown', 'nopassword', 'iloveyou',
  'iloveyou1', 'iloveu', 'loveyou', 'lovely', 'whatever', 'trustno1', 'nothing', 'blahblah', 'asdfasdf', 'fuckyou',
  'fuckoff', 'letitbe', 'forever', 'always', 'everything', 'someone', 'private', 'security', 'computer', 'internet',
  'service', 'server', 'network', 'database', 'oracle', 'postgres', 'mysql', 'linux', 'ubuntu', 'windows', 'microsoft',
  'google', 'facebook', 'twitter', 'youtube', 'yahoo', 'hotmail', 'gmail', 'outlook', 'apple', 'samsung', 'nokia',
  'opsdeck', 'kubernetes', 'docker', 'jenkins', 'grafana', 'prometheus', 'devops', 'company', 'business',
  // Names, pets and people
  'michael', 'jennifer', 'jordan', 'jordan23', 'michelle', 'jessica', 'ashley', 'daniel', 'andrew', 'joshua', 'matthew',
  'anthony', 'charlie', 'thomas', 'robert', 'william', 'richard', 'nicole', 'hannah', 'amanda', 'melissa', 'stephanie',
  'elizabeth', 'christopher', 'alexander', 'alexandra', 'victoria', 'samantha', 'benjamin', 'nicholas', 'jonathan',
  'patrick', 'maggie', 'ginger', 'buster', 'tigger', 'pepper', 'shadow', 'bailey', 'princess', 'prince', 'princesa',
  'sunshine', 'sweety', 'sweetheart', 'sweetie', 'honey', 'babygirl', 'angel', 'angels', 'angel123', 'daddy', 'mommy',
  'mother', 'father', 'family', 'friends', 'bestfriend', 'justin', 'justinbieber', 'beyonce', 'rihanna', 'eminem',
  'tinkerbell', 'barbie', 'pokemon', 'pikachu', 'naruto', 'sasuke', 'goku', 'batman', 'superman', 'spiderman',
  'ironman', 'starwars', 'darthvader', 'skywalker', 'startrek', 'hogwarts', 'gandalf', 'frodo', 'matrix', 'neo',
  'mickey', 'mickeymouse', 'minnie', 'snoopy', 'garfield', 'scooby', 'scoobydoo', 'homer', 'simpsons', 'bond007',
  'jamesbond', 'merlin', 'wizard', 'dragon', 'dragons', 'dragon123', 'phoenix', 'unicorn', 'monkey', 'monkey123',
  'donkey', 'tiger', 'tigers', 'lion', 'eagle', 'eagles', 'falcon', 'panther', 'jaguar', 'cheetah', 'wolf', 'wolves',
  'bear', 'bears', 'dolphin', 'dolphins', 'shark', 'sharks', 'turtle', 'rabbit', 'bunny', 'kitten', 'kitty',
  'hellokitty', 'puppy', 'doggie', 'cookie', 'cookies', 'chocolate', 'cupcake', 'banana', 'apple123', 'orange',
  'cherry', 'strawberry', 'pumpkin', 'peanut', 'butter', 'cheese', 'pizza', 'pepperoni', 'hamburger', 'coffee',
  'summer', 'winter', 'spring', 'autumn', 'sunday', 'monday', 'friday', 'january', 'february', 'march', 'april',
  'august', 'september', 'october', 'november', 'december', 'christmas', 'halloween', 'birthday', 'holiday',
  // Sport, music and cars
  'football', 'football1', 'baseball', 'basketball', 'soccer', 'hockey', 'tennis', 'golfer', 'golf', 'runner',
  'swimming', 'yankees', 'lakers', 'cowboys', 'steelers', 'packers', 'redskins', 'chelsea', 'arsenal', 'liverpool',
  'manchester', 'manutd', 'barcelona', 'realmadrid', 'juventus', 'milan', 'ronaldo', 'messi', 'cristiano', 'beckham',
  'maradona', 'pele', 'zidane', 'rangers', 'celtic', 'blink182', 'metallica', 'nirvana', 'slipknot', 'rockstar',
  'rocknroll', 'guitar', 'music', 'musica', 'dancer', 'dancing', 'singer', 'ferrari', 'porsche', 'mercedes', 'bmw',
  'corvette', 'mustang', 'camaro', 'harley', 'yamaha', 'honda', 'toyota', 'nissan', 'subaru', 'chevy', 'ford',
  'mercury', 'jupiter', 'saturn', 'pluto', 'galaxy', 'universe', 'planet',
  // Words that keep turning up
  'freedom', 'liberty', 'justice', 'victory', 'winner', 'winning', 'champion', 'champions', 'legend', 'killer',
  'hunter', 'hunting', 'fishing', 'soldier', 'warrior', 'ninja', 'samurai', 'knight', 'pirate', 'cowboy', 'ranger',
  'hacker', 'hacked', 'matrix123', 'gamer', 'player', 'player1', 'gaming', 'minecraft', 'fortnite', 'roblox',
  'starcraft', 'warcraft', 'diablo', 'zelda', 'mario', 'nintendo', 'playstation', 'xbox360', 'counterstrike',
  'silver', 'golden', 'diamond', 'crystal', 'platinum', 'purple', 'yellow', 'orange123', 'blue', 'bluesky', 'redsox',
  'green', 'black', 'white', 'rainbow', 'sunset', 'sunrise', 'thunder', 'lightning', 'storm', 'tornado', 'ocean',
  'river', 'mountain', 'forest', 'flower', 'flowers', 'garden', 'paradise', 'heaven', 'angel1', 'jesus', 'jesus1',
  'jesuschrist', 'christ', 'blessed', 'blessing', 'faith', 'church', 'godisgood', 'trinity', 'hallelujah',
  'happiness', 'happy123', 'smile', 'smiley', 'funny', 'lucky', 'lucky7', 'magic', 'mystery', 'secret1', 'qwerty7',
  'beautiful', 'gorgeous', 'sexy', 'sexygirl', 'hottie', 'lover', 'loverboy', 'iloveme', 'myself', 'mylove',
  'mybaby', 'baby123', 'letmeinnow', 'goodluck', 'goodbye', 'hello', 'hello123', 'hello1234', 'helloworld', 'hi123456',
  'trustme', 'believe', 'imagine', 'dreamer', 'dreams', 'destiny', 'future', 'cosmos', 'america', 'canada', 'england',
  'london', 'paris', 'berlin', 'newyork', 'chicago', 'boston', 'dallas', 'houston', 'california', 'florida', 'texas',
  'australia', 'germany', 'france', 'italia', 'espana', 'mexico', 'brasil', 'india', 'pakistan', 'nigeria', 'russia',
  'poland', 'ukraine', 'bangladesh', 'indonesia', 'philippines', 'vietnam', 'china', 'japan', 'korea', 'portugal',
  'qwerty321', 'asdasd', 'asdasdasd', 'zxczxc', 'qweqwe', 'qweqweqwe', 'asdqwe123', 'zxcasdqwe', 'iloveyou2',
];
